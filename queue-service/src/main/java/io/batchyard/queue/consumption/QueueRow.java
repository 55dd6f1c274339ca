package io.batchyard.queue.consumption;

import java.time.OffsetDateTime;

/** A row of the batch consumption queue: one source batch offered to one consuming step. */
public record QueueRow(long queueId, long sourceBatchId, Long targetBatchId, OffsetDateTime insertTs,
                       Long sourceProcessId, OffsetDateTime startTs, OffsetDateTime endTs, int batchState,
                       String batchMarking, long processId) {

    public static final int NEW = 0;
    public static final int PROCESSED = 1;
    public static final int ACCESSED = 2;

    public boolean claimed() {
        return targetBatchId != null;
    }
}
