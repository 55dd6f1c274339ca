package io.batchyard.lineage.query;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * A registered query (its text as sent) and the outcome of parsing it, with its lineage statements in script order
 * (none for a query that was not parsed).
 */
public record StoredQuery(UUID id, QueryType queryType, String queryText, String defaultDatabase, long processId,
                          Long instanceExecId, ParseStatus parseStatus, String parseError, List<String> warnings,
                          String registeredVia, OffsetDateTime registeredAt, long relationCount,
                          List<StoredStatement> statements) {

    StoredQuery withStatements(List<StoredStatement> found) {
        return new StoredQuery(id, queryType, queryText, defaultDatabase, processId, instanceExecId, parseStatus,
                parseError, warnings, registeredVia, registeredAt, relationCount, List.copyOf(found));
    }

    public enum ParseStatus { PARSED, FAILED, UNSUPPORTED }
}
