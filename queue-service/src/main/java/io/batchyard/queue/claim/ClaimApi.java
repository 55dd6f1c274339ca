package io.batchyard.queue.claim;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.util.List;

/** Bodies of {@code POST /internal/claims}, execution-service's InitJob call. */
public final class ClaimApi {

    private ClaimApi() {
    }

    /**
     * {@code completedTargetBatchId}: the target batch of the parent's last successful run, if any. Its JobHalted may
     * not have reached the queue yet; its rows are archived before claiming, so they are never mistaken for a failed
     * run's rows to retry.
     */
    public record ClaimRequest(@NotNull @Positive Long parentProcessId, @NotNull @Positive Long instanceExecId,
                               @PositiveOrZero Integer maxBatch, @Positive Long completedTargetBatchId) {
    }

    /**
     * One claimed queue row, as InitJob outputs it: the consuming step ({@code processId}), the source batch and the
     * run's target batch, the queue row itself ({@code queueId}) and the process that enqueued the batch
     * ({@code sourceProcessId}, null for a placeholder row), with the source batch's producing run and files.
     */
    public record ClaimedRow(long queueId, long processId, long sourceBatchId, String batchMarking, long targetBatchId,
                             Long sourceProcessId, Long sourceInstanceExecId, String fileList, String batchList) {
    }

    public record ClaimResult(long targetBatchId, boolean retry, List<ClaimedRow> rows) {
    }
}
