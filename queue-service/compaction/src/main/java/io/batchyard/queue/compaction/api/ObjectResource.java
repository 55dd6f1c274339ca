package io.batchyard.queue.compaction.api;

import static io.batchyard.queue.compaction.api.TableResource.NAME;

import io.batchyard.api.CommonErrors;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.queue.compaction.ObjectRegistrationService;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.DateTimeException;
import java.time.LocalDate;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Small objects a producer wrote to its table's folder of the store, registered for merging. */
@RolesAllowed(Roles.OPERATOR)
@Path("/compaction")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "compaction")
public class ObjectResource {

    public record NewObject(@NotNull @Pattern(regexp = NAME) String schemaName,
                            @NotNull @Pattern(regexp = NAME) String tableName,
                            @NotNull @Pattern(regexp = "\\d{4}-\\d{2}-\\d{2}") String partitionDate,
                            @NotBlank @Size(max = 1024) String objectKey) {

        /** A string, not a LocalDate: Jackson's own 400 for a bad date would not be problem+json. */
        LocalDate date() {
            try {
                return LocalDate.parse(partitionDate);
            } catch (DateTimeException e) {
                throw CommonErrors.INVALID_REQUEST.exception("partitionDate is not a valid date (YYYY-MM-DD)");
            }
        }
    }

    private final ObjectRegistrationService registration;
    private final SecurityIdentity identity;

    public ObjectResource(ObjectRegistrationService registration, SecurityIdentity identity) {
        this.registration = registration;
        this.identity = identity;
    }

    @POST
    @Path("objects")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Register a small object already written to the table's folder of the store (idempotent per "
            + "table, date and key)")
    public Uni<Response> registerObject(@Valid @NotNull NewObject request) {
        LocalDate date = request.date();
        return registration.register(Caller.of(identity), request.schemaName(), request.tableName(), date,
                        request.objectKey())
                .map(r -> (r.created() ? Response.status(Response.Status.CREATED) : Response.ok()).entity(r).build());
    }
}
