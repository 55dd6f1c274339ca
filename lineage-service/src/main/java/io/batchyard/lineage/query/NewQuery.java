package io.batchyard.lineage.query;

import java.util.UUID;

/**
 * A query to register. {@code queryId} is optional and chosen by the caller: registering the same id again returns the
 * stored query, so a step that retries its registration does not duplicate lineage.
 */
public record NewQuery(UUID queryId, QueryType type, String text, long processId, Long instanceExecId,
                       String defaultDatabase) {
}
