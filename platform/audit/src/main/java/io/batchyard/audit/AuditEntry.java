package io.batchyard.audit;

import java.time.Instant;

/**
 * One audited change: who (the token's subject, or {@code anonymous}), what (the HTTP method and path, or the
 * command), when, and how it ended (the HTTP status, or ACCEPTED / REJECTED with the problem's code).
 */
public record AuditEntry(Long id, Instant occurredAt, String subject, Channel channel, String action, Long processId,
                         String outcome, Integer problemCode, String correlationId) {

    public enum Channel { HTTP, COMMAND }

    public static final String ANONYMOUS = "anonymous";

    /** An entry still to be written (the database assigns its id and, when null, its time). */
    public static AuditEntry of(String subject, Channel channel, String action, Long processId, String outcome,
                                Integer problemCode, String correlationId) {
        return new AuditEntry(null, null, subject == null || subject.isBlank() ? ANONYMOUS : subject, channel, action,
                processId, outcome, problemCode, correlationId);
    }
}
