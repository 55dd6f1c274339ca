package io.batchyard.execution.lifecycle;

import java.time.OffsetDateTime;

/**
 * A run (instance execution) of a parent process or of a step. {@code failureCode} and {@code failureText} are what
 * TermJob's caller said about a failed job run; null otherwise.
 */
public record Run(long instanceExecId, long processId, Long parentInstanceExecId, OffsetDateTime startTs,
                  OffsetDateTime endTs, ExecState state, Long targetBatchId, String batchMarking, boolean retry,
                  Long lastRecoverableSpId, int version, Integer failureCode, String failureText) {
}
