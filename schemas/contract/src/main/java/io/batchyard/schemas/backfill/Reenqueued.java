package io.batchyard.schemas.backfill;

import java.util.List;

/**
 * What a re-enqueue offered, one row per step of the job: the queue row it made (or had made), the batch it offers, the
 * step, its marking, and the archived consumption it supersedes.
 */
public record Reenqueued(List<Row> rows) {

    public record Row(long queueId, long supersededQueueId, long batchId, long processId, String batchMarking) {
    }
}
