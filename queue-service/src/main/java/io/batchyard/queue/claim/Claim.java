package io.batchyard.queue.claim;

/** A run's claim: its parent process and its target batch; {@code retry} when it took over a failed run's target. */
public record Claim(long instanceExecId, long parentProcessId, long targetBatchId, boolean retry) {
}
