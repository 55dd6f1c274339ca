package io.batchyard.execution.lifecycle;

import static io.batchyard.api.CommonErrors.NOT_FOUND;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import jakarta.inject.Inject;
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
import org.jdbi.v3.core.Jdbi;

/** Runs (instance executions) of parents and steps, and their transitions. */
@Path("/runs")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "runs")
public class RunResource {

    public record RunWithSteps(Run run, List<Run> steps) {
    }

    @Inject
    Jdbi jdbi;

    @Inject
    Runs runs;

    @GET
    @Operation(summary = "Runs, newest first, optionally of one process and in one state (a name such as RUNNING, or"
            + " its number 1-8)")
    public Page<Run> list(@Valid @BeanParam PageRequest page, @QueryParam("processId") @Positive Long processId,
                          @QueryParam("state") String state) {
        Integer stateId = state == null || state.isBlank() ? null : ExecState.parse(state).id;
        return jdbi.withHandle(h -> Page.of(runs.list(h, processId, stateId, page.limit(), page.offset()),
                runs.count(h, processId, stateId), page));
    }

    @GET
    @Path("{id}")
    public RunWithSteps get(@PathParam("id") long id) {
        return jdbi.withHandle(h -> {
            Run run = runs.find(h, id).orElseThrow(() -> NOT_FOUND.exception("run " + id + " does not exist"));
            return new RunWithSteps(run, runs.stepRunsOf(h, id));
        });
    }

    @GET
    @Path("{id}/history")
    public List<Runs.Transition> history(@PathParam("id") long id) {
        return jdbi.withHandle(h -> {
            runs.find(h, id).orElseThrow(() -> NOT_FOUND.exception("run " + id + " does not exist"));
            return runs.history(h, id);
        });
    }
}
