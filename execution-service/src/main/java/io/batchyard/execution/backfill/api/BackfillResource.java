package io.batchyard.execution.backfill.api;

import io.batchyard.api.EnumParams;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.backfill.BackfillPlan;
import io.batchyard.execution.backfill.BackfillRequest;
import io.batchyard.execution.backfill.BackfillService;
import io.batchyard.execution.backfill.BackfillStart;
import io.batchyard.execution.backfill.BackfillState;
import io.batchyard.execution.backfill.BackfillSummary;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Backfills: a plan of what a restatement makes wrong, previewed without changing anything, kept by its id. */
@RolesAllowed(Roles.VIEWER)
@Path("/backfills")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "backfills")
public class BackfillResource {

    private final BackfillService backfills;
    private final SecurityIdentity identity;

    public BackfillResource(BackfillService backfills, SecurityIdentity identity) {
        this.backfills = backfills;
        this.identity = identity;
    }

    @POST
    @Path("preview")
    @Operation(summary = "Plan a backfill: every (process, input batch) to re-run, in levels, with reasons and"
            + " estimates; changes nothing but keeps the plan (201, Location of the plan)")
    public Uni<Response> preview(@Valid @NotNull BackfillRequest request) {
        return backfills.preview(Caller.of(identity), request).map(plan -> Response
                .created(URI.create("/backfills/plans/" + plan.planId())).entity(plan).build());
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Operation(summary = "Start a backfill from a kept plan (202, Location of the backfill); 462 with the difference"
            + " when the state it was computed from changed, unless recompute")
    public Uni<Response> start(@Valid @NotNull BackfillStart start) {
        return backfills.start(Caller.of(identity), start).map(started -> Response
                .accepted(started).location(URI.create("/backfills/" + started.backfill().backfillId())).build());
    }

    @GET
    @Operation(summary = "Backfills whose plan lists only processes the caller may read, newest first, each with its"
            + " roots and its entries counted in all and per level; state is QUEUED, RUNNING, PAUSED, SUCCEEDED,"
            + " FAILED or CANCELLED")
    public Uni<Page<BackfillSummary>> list(@QueryParam("state") String state, @Valid @BeanParam PageRequest page) {
        return backfills.list(Caller.of(identity), EnumParams.optional("state", state, BackfillState.class,
                ExecutionError.INVALID_BACKFILL), page);
    }

    @GET
    @Path("{backfillId}")
    @Operation(summary = "A backfill: its state and its plan")
    public Uni<BackfillService.Started> backfill(@PathParam("backfillId") UUID backfillId) {
        return backfills.backfill(Caller.of(identity), backfillId);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("{backfillId}/pause")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Pause a backfill: no new run starts")
    public Uni<BackfillService.Started> pause(@PathParam("backfillId") UUID backfillId) {
        return backfills.act(Caller.of(identity), backfillId, BackfillState.Action.PAUSE);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("{backfillId}/resume")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Resume a paused or failed backfill")
    public Uni<BackfillService.Started> resume(@PathParam("backfillId") UUID backfillId) {
        return backfills.act(Caller.of(identity), backfillId, BackfillState.Action.RESUME);
    }

    @RolesAllowed(Roles.OPERATOR)
    @POST
    @Path("{backfillId}/cancel")
    @Consumes(MediaType.WILDCARD)
    @Operation(summary = "Cancel a backfill for good")
    public Uni<BackfillService.Started> cancel(@PathParam("backfillId") UUID backfillId) {
        return backfills.act(Caller.of(identity), backfillId, BackfillState.Action.CANCEL);
    }

    @GET
    @Path("plans/{planId}")
    @Operation(summary = "A kept backfill plan")
    public Uni<BackfillPlan> plan(@PathParam("planId") UUID planId) {
        return backfills.plan(Caller.of(identity), planId);
    }
}
