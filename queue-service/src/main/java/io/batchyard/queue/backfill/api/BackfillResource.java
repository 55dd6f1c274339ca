package io.batchyard.queue.backfill.api;

import io.batchyard.api.Roles;
import io.batchyard.queue.backfill.ImpactService;
import io.batchyard.schemas.backfill.ImpactRequest;
import io.batchyard.schemas.backfill.ImpactResult;
import io.batchyard.schemas.backfill.ReenqueueRequest;
import io.batchyard.schemas.backfill.Reenqueued;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Called by execution-service's backfills: the impact walk behind a preview (and the check before a plan runs, whether
 * its fingerprint still holds), and a restated batch offered again to a step. Internal: the caller checks what its own
 * caller may do; the bodies are the contract's records, which execution-service's client sends and reads too.
 */
@RolesAllowed(Roles.SERVICE)
@Path("/internal/backfills")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "backfills (internal)")
public class BackfillResource {

    private final ImpactService impact;

    public BackfillResource(ImpactService impact) {
        this.impact = impact;
    }

    @POST
    @Path("impact")
    @Operation(summary = "The runs that consumed the roots' batches, level by level, with a fingerprint of the rows read")
    public Uni<ImpactResult> impact(@Valid @NotNull ImpactRequest request) {
        return impact.impact(request);
    }

    @POST
    @Path("reenqueue")
    @Operation(summary = "Offer a batch again to a step that consumed it, superseding the archived consumption")
    public Uni<Reenqueued> reenqueue(@Valid @NotNull ReenqueueRequest request) {
        return impact.reenqueue(request);
    }
}
