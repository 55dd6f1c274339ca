package io.batchyard.queue.compaction.merge;

import java.time.Duration;

/**
 * Tunables of a merge worker (the reference's values by default, in parentheses below).
 *
 * @param sizeCap           largest merged object planned, in bytes (128 MiB); a larger small object forms its own range
 * @param batchSize         most new small objects one run reads (2000); the rest is carried over
 * @param heartbeatInterval how often a running merge refreshes its lease (60 s)
 * @param jobTimeout        a lease not refreshed for this long is presumed dead and recovered (600 s)
 * @param recoverBatch      expired jobs recovered per claim attempt (100)
 * @param maxAttempts       failed or expired runs before a job is dead-lettered (5)
 * @param retryBackoff      delay before a failed run is retried (30 s)
 */
public record MergeSettings(long sizeCap, int batchSize, Duration heartbeatInterval, Duration jobTimeout,
                            int recoverBatch, int maxAttempts, Duration retryBackoff) {

    public MergeSettings {
        if (sizeCap <= 0 || batchSize <= 0 || recoverBatch <= 0 || maxAttempts <= 0 || retryBackoff.isNegative()) {
            throw new IllegalArgumentException("compaction: size cap, batch size, recover batch and max attempts must be "
                    + "positive, the retry backoff not negative");
        }
        // A lease refreshed less often than it expires would be taken from every live merge that lasts a while.
        if (heartbeatInterval.isZero() || heartbeatInterval.isNegative() || heartbeatInterval.compareTo(jobTimeout) >= 0) {
            throw new IllegalArgumentException("compaction: the heartbeat interval (" + heartbeatInterval
                    + ") must be positive and shorter than the job timeout (" + jobTimeout + ")");
        }
    }

    public static MergeSettings defaults() {
        return new MergeSettings(134_217_728L, 2000, Duration.ofSeconds(60), Duration.ofSeconds(600), 100, 5,
                Duration.ofSeconds(30));
    }

    public MergeSettings withSizeCap(long cap) {
        return new MergeSettings(cap, batchSize, heartbeatInterval, jobTimeout, recoverBatch, maxAttempts, retryBackoff);
    }

    public MergeSettings withBatchSize(int size) {
        return new MergeSettings(sizeCap, size, heartbeatInterval, jobTimeout, recoverBatch, maxAttempts, retryBackoff);
    }

    public MergeSettings withLease(Duration heartbeat, Duration timeout) {
        return new MergeSettings(sizeCap, batchSize, heartbeat, timeout, recoverBatch, maxAttempts, retryBackoff);
    }

    public MergeSettings withRetries(int attempts, Duration backoff) {
        return new MergeSettings(sizeCap, batchSize, heartbeatInterval, jobTimeout, recoverBatch, attempts, backoff);
    }
}
