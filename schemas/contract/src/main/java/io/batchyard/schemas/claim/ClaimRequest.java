package io.batchyard.schemas.claim;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.UUID;

/**
 * The body of {@code POST /internal/claims}: execution-service's InitJob asks queue-service for the input batches of a
 * starting run. Claiming is idempotent per {@code instanceExecId}, which is what lets the caller send it again.
 *
 * <p>{@code completedTargetBatchId}: the target batch of the parent's last successful run, if any. Its JobHalted may
 * not have reached the queue yet; its rows are archived before claiming, so they are never mistaken for a failed run's
 * rows to retry.
 *
 * <p>{@code backfillId}: the backfill that starts this run, null for a live run. A backfill's run re-does history:
 * when it halts, its output is not offered to every downstream step as new data; the backfill offers it to exactly
 * the runs it re-does next.
 */
public record ClaimRequest(@NotNull @Positive Long parentProcessId, @NotNull @Positive Long instanceExecId,
                           @PositiveOrZero Integer maxBatch, @Positive Long completedTargetBatchId,
                           @Size(max = 10_000) List<@NotNull @Positive Long> sourceBatchIds, UUID backfillId) {

    /** The ordinary claim: the oldest batches per step, up to {@code maxBatch}. */
    public ClaimRequest(Long parentProcessId, Long instanceExecId, Integer maxBatch, Long completedTargetBatchId) {
        this(parentProcessId, instanceExecId, maxBatch, completedTargetBatchId, null, null);
    }
}
