package io.batchyard.execution.runner;

import java.time.OffsetDateTime;

/** One logged line of a run's output. */
public record RunOutputLine(long logId, long instanceExecId, long processId, String stream, int lineNo, String line,
                            OffsetDateTime loggedAt) {
}
