package io.batchyard.schemas.claim;

/**
 * One claimed queue row, as InitJob outputs it: the consuming step ({@code processId}), the source batch and the run's
 * target batch, the queue row itself ({@code queueId}) and the process that enqueued the batch ({@code sourceProcessId},
 * null for a placeholder row), with the source batch's producing run and files.
 *
 * <p>{@code queueId}, {@code sourceProcessId} and the row's own {@code targetBatchId} came later than the other fields:
 * a reader takes them as absent (null) from a queue-service that does not send them yet.
 */
public record ClaimedRow(Long queueId, long processId, long sourceBatchId, String batchMarking, Long targetBatchId,
                         Long sourceProcessId, Long sourceInstanceExecId, String fileList, String batchList) {
}
