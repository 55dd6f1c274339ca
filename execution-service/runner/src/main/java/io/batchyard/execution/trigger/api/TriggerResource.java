package io.batchyard.execution.trigger.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.execution.trigger.TriggerRun;
import io.batchyard.execution.trigger.TriggerService;
import io.batchyard.execution.trigger.TriggerStarts;
import io.batchyard.persistence.InOrder;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.logging.Logger;

/** When a parent is started by its data, its trigger runs, pause and resume: the roles of its run policy. */
@RolesAllowed(Roles.VIEWER)
@Path("/processes/{pid}/trigger")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "trigger")
public class TriggerResource {

    private static final Logger LOG = Logger.getLogger(TriggerResource.class);

    /** POST …/resume body. */
    public record ResumeRequest(String mode) {
    }

    private final TriggerService triggers;
    private final TriggerStarts starts;
    private final SecurityIdentity identity;

    public TriggerResource(TriggerService triggers, TriggerStarts starts, SecurityIdentity identity) {
        this.triggers = triggers;
        this.starts = starts;
        this.identity = identity;
    }

    @RolesAllowed(Roles.OPERATOR)
    @PUT
    @Operation(summary = "Set the trigger settings of a parent: policy each | all | any-of | n-of | all-with-timeout | "
            + "none (on-batch and all-enqueuers are the old names of each and all), inputs, n, timeout, grain, zone, "
            + "coalesce")
    public Uni<TriggerService.Settings> put(@PathParam("pid") long pid, TriggerService.Request body) {
        return triggers.save(Caller.of(identity), pid, body);
    }

    @GET
    @Operation(summary = "The trigger settings of a parent (policy none when never set) and whether it is paused")
    public Uni<TriggerService.Settings> get(@PathParam("pid") long pid) {
        return triggers.get(Caller.of(identity), pid);
    }

    @GET
    @Path("/runs")
    @Operation(summary = "The parent's trigger runs, newest first, each with the batches it consumes")
    public Uni<Page<TriggerRun>> runs(@PathParam("pid") long pid, @Valid @BeanParam PageRequest page) {
        return triggers.runs(Caller.of(identity), pid, page);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("/pause")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Pause the parent's triggered runs: inputs are recorded, due buckets stay pending")
    public Uni<TriggerService.Settings> pause(@PathParam("pid") long pid) {
        return triggers.pause(Caller.of(identity), pid);
    }

    @GET
    @Path("/resume-preview")
    @Operation(summary = "What a resume would start (catch-up: every due bucket, oldest first) and skip (skip: all "
            + "but the newest due bucket)")
    public Uni<TriggerService.Resume> preview(@PathParam("pid") long pid, @QueryParam("mode") String mode) {
        return triggers.preview(Caller.of(identity), pid, mode);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("/resume")
    @Operation(summary = "Resume the parent's triggered runs (mode catch-up or skip); 409 code 437 when not paused")
    public Uni<TriggerService.Resume> resume(@PathParam("pid") long pid, ResumeRequest body) {
        return triggers.resume(Caller.of(identity), pid, body == null ? null : body.mode())
                .call(resumed -> InOrder.each(resumed.starts(), decision -> starts.after(decision)
                        .onFailure().invoke(e -> LOG.warnf(e, "resume of parent %d: a start failed; its bucket waits "
                                + "for the runner's tick", pid)).onFailure().recoverWithNull()))
                .map(TriggerService.Resumed::resume);
    }
}
