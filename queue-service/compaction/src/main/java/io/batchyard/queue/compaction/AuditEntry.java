package io.batchyard.queue.compaction;

import java.time.OffsetDateTime;

/** One operator action as audited: who did what to which target, when, and how it ended. */
public record AuditEntry(long auditId, String actor, String action, String target, String result, String detail,
                         OffsetDateTime at) {
}
