package io.batchyard.queue.compaction.merge;

import java.time.OffsetDateTime;

/**
 * A worker's exclusive hold on one merge job. {@code owner} and {@code attempt} fence every later write: a worker
 * whose lease expired (and was taken over) can no longer commit a range or touch the job.
 */
public record MergeJobClaim(long jobId, long partitionId, String owner, int attempt, OffsetDateTime scheduleTime) {
}
