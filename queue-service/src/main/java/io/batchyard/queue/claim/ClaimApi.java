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

    /** One claimed queue row, as InitJob outputs it (spec 3.1 E3). */
    public record ClaimedRow(long processId, long sourceBatchId, String batchMarking, long targetBatchId,
                             Long sourceInstanceExecId, String fileList, String batchList) {
    }

    public record ClaimResult(long targetBatchId, boolean retry, List<ClaimedRow> rows) {
    }
}
