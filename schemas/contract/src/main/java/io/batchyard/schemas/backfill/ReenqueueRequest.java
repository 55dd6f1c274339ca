package io.batchyard.schemas.backfill;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.util.UUID;

/**
 * The body of {@code POST /internal/backfills/reenqueue}: for backfill {@code backfillId}, offer a batch again to every
 * step of job {@code processId} that consumed batch {@code batchId}. What is offered is {@code batchId} itself (a
 * restated batch, re-read in place) or, when {@code offeredBatchId} is given, that batch instead: the output of the
 * backfill's re-run of the job that produced {@code batchId}, which supersedes it. Idempotent per backfill, batch and
 * step.
 */
public record ReenqueueRequest(@NotNull UUID backfillId, @NotNull @Positive Long batchId,
                               @NotNull @Positive Long processId, @Positive Long offeredBatchId) {

    /** The batch the steps are offered. */
    public long offered() {
        return offeredBatchId == null ? batchId : offeredBatchId;
    }
}
