package io.batchyard.queue.claim;

import java.util.UUID;

/**
 * A run's claim: its parent process and its target batch; {@code retry} when it took over a failed run's target;
 * {@code backfillId} when a backfill started the run (null for live runs).
 */
public record Claim(long instanceExecId, long parentProcessId, long targetBatchId, boolean retry, UUID backfillId) {
}
