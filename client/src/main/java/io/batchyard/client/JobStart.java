package io.batchyard.client;

import java.util.Map;

/**
 * InitJob's answer: the run ({@code instanceExecId}), the batch it produces, where it resumes (null on a fresh
 * start), whether it retries a failed run, and {@code outputs}, the keys a workflow reads
 * ({@code instance-exec-id}, {@code target-batch-id}, {@code min-batch-id-map.<step>}, …).
 */
public record JobStart(long instanceExecId, long targetBatchId, Long lastRecoverableSpId, boolean retry,
                       Map<String, String> outputs) {
}
