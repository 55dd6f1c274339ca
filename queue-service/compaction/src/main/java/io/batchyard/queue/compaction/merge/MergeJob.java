package io.batchyard.queue.compaction.merge;

import java.time.OffsetDateTime;

/** A merge job as listed by the API. */
public record MergeJob(long jobId, long partitionId, MergeJobState state, OffsetDateTime scheduleTime, int attempts,
                       String leaseOwner, OffsetDateTime heartbeatAt, String lastError) {
}
