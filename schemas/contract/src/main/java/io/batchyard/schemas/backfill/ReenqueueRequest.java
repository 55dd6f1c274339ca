package io.batchyard.schemas.backfill;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.util.UUID;

/**
 * The body of {@code POST /internal/backfills/reenqueue}: offer batch {@code batchId} again to step {@code processId},
 * which consumed it before, for backfill {@code backfillId}. Idempotent per backfill, batch and step.
 */
public record ReenqueueRequest(@NotNull UUID backfillId, @NotNull @Positive Long batchId,
                               @NotNull @Positive Long processId) {
}
