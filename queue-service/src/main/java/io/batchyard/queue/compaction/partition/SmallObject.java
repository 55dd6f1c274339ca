package io.batchyard.queue.compaction.partition;

/** A registered small object; {@code delayed} was fixed when it arrived and never changes. */
public record SmallObject(long objectId, long partitionId, String sourceKey, boolean delayed, long contentLength) {
}
