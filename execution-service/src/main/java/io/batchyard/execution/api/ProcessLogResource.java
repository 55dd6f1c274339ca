package io.batchyard.execution.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.lifecycle.Runs;
import io.batchyard.execution.runner.ProcessLog;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Jdbi;

/** What the commands of a run printed (the runner's process log). */
@Path("/runs/{ie}/log")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "runner")
public class ProcessLogResource {

    @Inject
    Jdbi jdbi;

    @Inject
    Runs runs;

    @Inject
    ProcessLog log;

    @GET
    @Operation(summary = "stdout/stderr lines of a run, in order; for a parent's run, with its steps' lines (steps=true)")
    public Page<ProcessLog.Line> lines(@PathParam("ie") long ie, @QueryParam("steps") @DefaultValue("true") boolean steps,
                                       @Valid @BeanParam PageRequest page) {
        return jdbi.withHandle(h -> {
            runs.find(h, ie).orElseThrow(() -> ExecutionError.UNKNOWN_RUN.exception("no run with instance exec id " + ie));
            return Page.of(log.lines(h, ie, steps, page.limit(), page.offset()), log.count(h, ie, steps), page);
        });
    }
}
