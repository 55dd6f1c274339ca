package io.batchyard.lineage.query;

import java.util.Map;
import java.util.UUID;

/**
 * A query to register: a script of one or more statements. {@code queryId} is optional and chosen by the caller:
 * registering the same id again returns the stored query, so a step that retries its registration does not duplicate
 * lineage. {@code variables} are the values the script ran with ({@code x} or {@code hiveconf:x}, {@code hivevar:x},
 * {@code env:x}), substituted into its statements before they are parsed; never null. {@code rejection}, when set, is
 * why the query is stored without being parsed (e.g. an unknown type on the topic): kept, never parsed.
 */
public record NewQuery(UUID queryId, QueryType type, String text, long processId, Long instanceExecId,
                       String defaultDatabase, Map<String, String> variables, String rejection) {

    public NewQuery {
        variables = variables == null ? Map.of() : Map.copyOf(variables);
    }

    public NewQuery(UUID queryId, QueryType type, String text, long processId, Long instanceExecId,
                    String defaultDatabase, Map<String, String> variables) {
        this(queryId, type, text, processId, instanceExecId, defaultDatabase, variables, null);
    }
}
