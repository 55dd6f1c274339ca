package io.batchyard.client;

/**
 * A process log entry: {@code message} (the value) under {@code category} and {@code messageId} (the key),
 * optionally for a run ({@code instanceRef}). {@code logId}, {@code processId} and {@code addTs} are the service's
 * (null in an entry to add; {@code addTs} may be set to record a past time).
 */
public record LogEntry(Long logId, Long processId, String category, String messageId, String message,
                       Long instanceRef, String addTs) {

    /** An entry to add. */
    public static LogEntry of(String category, String messageId, String message, Long instanceRef) {
        return new LogEntry(null, null, category, messageId, message, instanceRef, null);
    }
}
