package io.batchyard.queue.backfill;

/**
 * A queue or archive row as the impact walk reads it: which batch a step of {@code parentProcessId} consumed, and the
 * run that consumed it ({@code consumerRunId}, the run its target batch is bound to; null while nobody claimed the
 * row). {@code archived}: the row is in the archive, so the run completed; {@code targetFailed}: that run failed.
 */
public record ConsumedRow(long rowId, boolean archived, long sourceBatchId, Long targetBatchId, long stepId,
                          Long parentProcessId, Long consumerRunId, int batchState, String batchMarking,
                          boolean targetFailed) {

    /** One line per row, in the fingerprint: every field a later change to the row would alter. */
    String fingerprintLine() {
        return (archived ? "a" : "q") + ':' + rowId + ':' + sourceBatchId + ':' + targetBatchId + ':' + stepId + ':'
                + consumerRunId + ':' + batchState + ':' + targetFailed;
    }
}
