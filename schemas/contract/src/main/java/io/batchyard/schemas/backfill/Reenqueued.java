package io.batchyard.schemas.backfill;

/** The queue row a re-enqueue made (or had made), and the archived consumption it supersedes. */
public record Reenqueued(long queueId, long supersededQueueId, long batchId, long processId, String batchMarking) {
}
