package io.batchyard.schemas.claim;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * The body of {@code POST /internal/claims}: execution-service's InitJob asks queue-service for the input batches of a
 * starting run. Claiming is idempotent per {@code instanceExecId}, which is what lets the caller send it again.
 *
 * <p>{@code completedTargetBatchId}: the target batch of the parent's last successful run, if any. Its JobHalted may
 * not have reached the queue yet; its rows are archived before claiming, so they are never mistaken for a failed run's
 * rows to retry.
 */
public record ClaimRequest(@NotNull @Positive Long parentProcessId, @NotNull @Positive Long instanceExecId,
                           @PositiveOrZero Integer maxBatch, @Positive Long completedTargetBatchId,
                           @Size(max = 10_000) List<@NotNull @Positive Long> sourceBatchIds) {

    /** The ordinary claim: the oldest batches per step, up to {@code maxBatch}. */
    public ClaimRequest(Long parentProcessId, Long instanceExecId, Integer maxBatch, Long completedTargetBatchId) {
        this(parentProcessId, instanceExecId, maxBatch, completedTargetBatchId, null);
    }
}
