package io.batchyard.lineage.query;

import java.time.OffsetDateTime;

/**
 * One lineage statement of a registered script, as it ran: comments removed, variables substituted, with the default
 * database in force for it (the registration's, or that of the last {@code USE} before it). {@code index} is its
 * position among all statements of the script, so the statements without lineage that were skipped leave gaps.
 */
public record StoredStatement(int index, String text, String defaultDatabase, StoredQuery.ParseStatus parseStatus,
                              String parseError, OffsetDateTime registeredAt) {
}
