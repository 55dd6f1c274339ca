package io.batchyard.execution.trigger;

import java.time.OffsetDateTime;
import java.util.List;

/**
 * A run a trigger decided for one bucket of a parent, with its attribution: every batch it consumes, for a bucket
 * that fired on its timeout what did not arrive, how many inputs arrived after it had started ({@code late}), and the
 * run it became; {@code eventId}: the BatchEnqueued that made it due (null for a timeout).
 */
public record TriggerRun(long id, String bucket, String state, String reason, List<Batch> batches,
                         List<Missing> missing, int late, OffsetDateTime createdAt, OffsetDateTime startedAt,
                         Long instanceExecId, String eventId) {

    public static final String PENDING = "PENDING";
    public static final String STARTED = "STARTED";
    public static final String SKIPPED = "SKIPPED";

    /**
     * A batch the run consumes: its queue row, who produced it, the producer's own bucket, and the parent's step it was
     * enqueued for.
     */
    public record Batch(long queueId, Long sourceProcessId, long sourceBatchId, String inputBucket,
                        long consumerProcessId) {
    }

    /** The buckets an input process did not deliver (empty buckets: no batch at all, with the upstream grain). */
    public record Missing(long processId, List<String> buckets) {
    }
}
