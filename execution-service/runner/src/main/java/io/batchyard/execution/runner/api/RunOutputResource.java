package io.batchyard.execution.runner.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.execution.runner.RunOutputLine;
import io.batchyard.execution.runner.RunOutputService;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
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

/** What the commands of a run printed (the runner's run output). */
@RolesAllowed(Roles.VIEWER)
@Path("/runs/{ie}/log")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "runner")
public class RunOutputResource {

    private final RunOutputService log;
    private final SecurityIdentity identity;

    public RunOutputResource(RunOutputService log, SecurityIdentity identity) {
        this.log = log;
        this.identity = identity;
    }

    @GET
    @Operation(summary = "stdout/stderr lines of a run, in order; for a parent's run, with its steps' lines (steps=true)")
    public Uni<Page<RunOutputLine>> lines(@PathParam("ie") long ie,
                                                      @QueryParam("steps") @DefaultValue("true") boolean steps,
                                                      @Valid @BeanParam PageRequest page) {
        return log.lines(Caller.of(identity), ie, steps, page);
    }
}
