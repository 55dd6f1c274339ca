package io.batchyard.execution.lifecycle;

import java.time.OffsetDateTime;

/** A run (instance execution) of a parent process or of a step. */
public record Run(long instanceExecId, long processId, Long parentInstanceExecId, OffsetDateTime startTs,
                  OffsetDateTime endTs, ExecState state, Long targetBatchId, String batchMarking, boolean retry,
                  Long lastRecoverableSpId, int version) {
}
