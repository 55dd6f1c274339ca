package io.batchyard.audit;

import java.time.Instant;

/** Which entries {@code GET /audit} returns; null fields do not filter. {@code to} is exclusive. */
public record AuditFilter(String subject, Long processId, Instant from, Instant to) {
}
