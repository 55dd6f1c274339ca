package io.batchyard.queue.batch.api;

import io.batchyard.api.CommonErrors;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.queue.batch.BatchApi;
import io.batchyard.queue.batch.BatchService;
import io.batchyard.queue.batch.FileRow;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Files of batches: RegisterFile and the min..max batch look-up (GetFiles). */
@RolesAllowed(Roles.VIEWER)
@Path("/files")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "files")
public class FileResource {

    private final BatchService batches;
    private final SecurityIdentity identity;

    public FileResource(BatchService batches, SecurityIdentity identity) {
        this.batches = batches;
        this.identity = identity;
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Operation(summary = "Register a file under a batch (a new Type1 batch when batchId is 0 or absent)")
    public Uni<Response> register(@Valid @NotNull BatchApi.RegisterFile r) {
        return batches.registerFile(Caller.of(identity), r).map(row -> Response.status(201).entity(row).build());
    }

    @GET
    @Operation(summary = "Files of the batches min..max; with processId, both must be queued for that step")
    public Uni<List<FileRow>> files(@QueryParam("minBatchId") @NotNull @PositiveOrZero Long min,
                                                    @QueryParam("maxBatchId") @NotNull @PositiveOrZero Long max,
                                                    @QueryParam("processId") @Positive Long processId) {
        if (min > max) {
            throw CommonErrors.INVALID_REQUEST.exception("minBatchId " + min + " is greater than maxBatchId " + max);
        }
        return batches.files(Caller.of(identity), min, max, processId);
    }
}
