package io.batchyard.execution.deadline.api;

import io.batchyard.api.EnumParams;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.deadline.Deadline;
import io.batchyard.execution.deadline.DeadlineService;
import io.batchyard.execution.deadline.DeadlineState;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Data deadlines of expected buckets: listing them by state, reading one, and an operator's waiver. */
@RolesAllowed(Roles.VIEWER)
@Path("/deadlines")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "deadlines")
public class DeadlineResource {

    /** A waiver's body: why the deadline no longer counts. */
    public record Waiver(@NotNull @NotBlank @Size(max = 2000) String reason) {
    }

    private final DeadlineService deadlines;
    private final SecurityIdentity identity;

    public DeadlineResource(DeadlineService deadlines, SecurityIdentity identity) {
        this.deadlines = deadlines;
        this.identity = identity;
    }

    private Caller caller() {
        return Caller.of(identity);
    }

    @GET
    @Operation(summary = "Deadlines of the processes the caller may read, soonest due first; state is SET, AT_RISK, "
            + "MET, MISSED, RECOVERED or WAIVED")
    public Uni<Page<Deadline>> list(@QueryParam("state") String state, @QueryParam("processId") Long processId,
                                    @Valid @BeanParam PageRequest page) {
        DeadlineState wanted = EnumParams.optional("state", state, DeadlineState.class,
                ExecutionError.INVALID_DEADLINE_STATE);
        return deadlines.list(caller(), wanted, processId, page);
    }

    @GET
    @Path("{id}")
    public Uni<Deadline> get(@PathParam("id") long id) {
        return deadlines.get(caller(), id);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("{id}/waive")
    @Operation(summary = "WAIVED: an operator decides a SET, AT_RISK or MISSED deadline no longer counts, saying why")
    public Uni<Deadline> waive(@PathParam("id") long id, @NotNull @Valid Waiver waiver) {
        return deadlines.waive(caller(), id, waiver.reason());
    }
}
