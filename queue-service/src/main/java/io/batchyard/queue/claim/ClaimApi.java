package io.batchyard.queue.claim;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.util.List;

/** Bodies of {@code POST /internal/claims}, execution-service's InitJob call. */
public final class ClaimApi {

    private ClaimApi() {
    }

    public record ClaimRequest(@NotNull @Positive Long parentProcessId, @NotNull @Positive Long instanceExecId,
                               @PositiveOrZero Integer maxBatch) {
    }

    /** One claimed queue row, as InitJob outputs it (spec 3.1 E3). */
    public record ClaimedRow(long processId, long sourceBatchId, String batchMarking, long targetBatchId,
                             Long sourceInstanceExecId, String fileList, String batchList) {
    }

    public record ClaimResult(long targetBatchId, boolean retry, List<ClaimedRow> rows) {
    }
}
