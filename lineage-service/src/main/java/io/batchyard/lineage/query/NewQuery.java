package io.batchyard.lineage.query;

import java.util.UUID;

/**
 * A query to register. {@code queryId} is optional and chosen by the caller: registering the same id again returns the
 * stored query, so a step that retries its registration does not duplicate lineage. {@code rejection}, when set, is
 * why the query is stored without being parsed (e.g. an unknown type on the topic): kept, never parsed.
 */
public record NewQuery(UUID queryId, QueryType type, String text, long processId, Long instanceExecId,
                       String defaultDatabase, String rejection) {

    public NewQuery(UUID queryId, QueryType type, String text, long processId, Long instanceExecId,
                    String defaultDatabase) {
        this(queryId, type, text, processId, instanceExecId, defaultDatabase, null);
    }
}
