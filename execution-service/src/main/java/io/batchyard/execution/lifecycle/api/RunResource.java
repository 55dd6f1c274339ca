package io.batchyard.execution.lifecycle.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.execution.lifecycle.ExecState;
import io.batchyard.execution.lifecycle.Run;
import io.batchyard.execution.lifecycle.RunService;
import io.batchyard.execution.lifecycle.Transition;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Positive;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Runs (instance executions) of parents and steps, and their transitions. */
@RolesAllowed(Roles.VIEWER)
@Path("/runs")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "runs")
public class RunResource {

    private final RunService runs;
    private final SecurityIdentity identity;

    public RunResource(RunService runs, SecurityIdentity identity) {
        this.runs = runs;
        this.identity = identity;
    }

    @GET
    @Operation(summary = "Runs, newest first, optionally of one process and in one state (a name such as RUNNING, or"
            + " its number 1-8); only runs of applications the caller may read")
    public Uni<Page<Run>> list(@Valid @BeanParam PageRequest page, @QueryParam("processId") @Positive Long processId,
                               @QueryParam("state") String state) {
        Integer stateId = state == null || state.isBlank() ? null : ExecState.parse(state).id;
        return runs.list(Caller.of(identity), processId, stateId, page);
    }

    @GET
    @Path("{id}")
    public Uni<RunService.RunWithSteps> get(@PathParam("id") long id) {
        return runs.get(Caller.of(identity), id);
    }

    @GET
    @Path("{id}/history")
    public Uni<List<Transition>> history(@PathParam("id") long id) {
        return runs.history(Caller.of(identity), id);
    }
}
