package io.batchyard.queue.consumption;

/** One input of a run's target batch: which batch, produced by which process and run. */
public record BatchLineage(long queueId, long sourceBatchId, Long sourceProcessId, Long sourceInstanceExecId,
                           long consumerProcessId, String batchMarking, int batchState) {
}
