package io.batchyard.execution.backfill.api;

import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.execution.backfill.BackfillPlan;
import io.batchyard.execution.backfill.BackfillRequest;
import io.batchyard.execution.backfill.BackfillService;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
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

    @GET
    @Path("plans/{planId}")
    @Operation(summary = "A kept backfill plan")
    public Uni<BackfillPlan> plan(@PathParam("planId") UUID planId) {
        return backfills.plan(Caller.of(identity), planId);
    }
}
