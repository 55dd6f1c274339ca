package io.batchyard.lineage.query;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** A registered query and the outcome of parsing it. */
public record StoredQuery(UUID id, QueryType queryType, String queryText, String defaultDatabase, long processId,
                          Long instanceExecId, ParseStatus parseStatus, String parseError, List<String> warnings,
                          String registeredVia, OffsetDateTime registeredAt, long relationCount) {

    public enum ParseStatus { PARSED, FAILED, UNSUPPORTED }
}
