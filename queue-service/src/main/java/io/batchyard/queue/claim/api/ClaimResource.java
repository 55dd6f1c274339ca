package io.batchyard.queue.claim.api;

import io.batchyard.api.Roles;
import io.batchyard.queue.claim.ClaimService;
import io.batchyard.schemas.claim.ClaimRequest;
import io.batchyard.schemas.claim.ClaimResult;
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
 * Called synchronously by execution-service's InitJob: InitJob's output needs the claimed batches at once. The bodies
 * are the contract's records, which execution-service's client ({@code io.batchyard.clients.queue.QueueApi}) sends and
 * reads too.
 */
@RolesAllowed(Roles.SERVICE)
@Path("/internal/claims")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "claims (internal)")
public class ClaimResource {

    private final ClaimService claims;

    public ClaimResource(ClaimService claims) {
        this.claims = claims;
    }

    @POST
    @Operation(summary = "Claim the input batches of a starting run (idempotent per instanceExecId)")
    public Uni<ClaimResult> claim(@Valid @NotNull ClaimRequest request) {
        return claims.claim(request.parentProcessId(), request.instanceExecId(), request.maxBatch(),
                request.completedTargetBatchId(), request.sourceBatchIds(), request.backfillId());
    }
}
