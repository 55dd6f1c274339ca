package io.batchyard.execution.processlog;

import java.time.OffsetDateTime;

/**
 * One process log entry: under a category, a message id (the key) and its message (the value), optionally for a run
 * ({@code instanceRef}, usually an instance exec id). Newer entries have higher log ids.
 */
public record ProcessLogEntry(long logId, long processId, String category, String messageId, String message,
                              Long instanceRef, OffsetDateTime addTs) {
}
