package io.batchyard.queue.compaction.merge;

/** One merged object of a partition: the small objects with ids in (lowerBound, upperBound]. */
public record MergeRange(long lowerBound, long upperBound, long contentLength, long recordCount) {
}
