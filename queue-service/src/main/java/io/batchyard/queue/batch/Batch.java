package io.batchyard.queue.batch;

import java.time.OffsetDateTime;

/** A batch: a run's target ({@code sourceInstanceExecId} the run it is bound to) or one registered with files. */
public record Batch(long batchId, Long sourceInstanceExecId, String batchType, OffsetDateTime failedAt,
                    OffsetDateTime createdAt) {
}
