package io.batchyard.client.hive;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * Decides whether an executed query is registered and with what: the rules of the hook, free of Hive types.
 *
 * <p>The process and run come from the job configuration that generated Oozie workflows set on every Hive action
 * ({@code batchyard.lineage.processId}, {@code batchyard.lineage.instanceExecId}; BDRE's {@code bdre.lineage.*} names
 * are read when Batchyard's are absent, so workflows written for BDRE keep working).
 */
public final class QueryExtraction {

    public static final String PROCESS_ID = "batchyard.lineage.processId";
    public static final String INSTANCE_EXEC_ID = "batchyard.lineage.instanceExecId";
    static final String BDRE_PROCESS_ID = "bdre.lineage.processId";
    static final String BDRE_INSTANCE_EXEC_ID = "bdre.lineage.instanceExecId";

    /**
     * Hive operations whose text lineage-service turns into lineage (SELECT and INSERT are both {@code QUERY}; CREATE
     * TABLE teaches it a table's columns). USE, SET, DROP, ALTER, LOAD, SHOW and the like carry none and are not sent.
     */
    static final Set<String> LINEAGE_OPERATIONS = Set.of("QUERY", "CREATETABLE", "CREATETABLE_AS_SELECT",
            "CREATEVIEW", "ALTERVIEW_AS", "CREATE_MATERIALIZED_VIEW");

    private QueryExtraction() {
    }

    /**
     * @param conf          the job configuration (HiveConf) by property name
     * @param queryText     the query as Hive ran it
     * @param hiveQueryId   Hive's id of this execution ({@code hive_<time>_<uuid>}), or null
     * @param operationName Hive's operation name of the statement, or null when unknown (then it is sent)
     * @param currentDatabase the session's current database, or null
     * @return the query to register, or empty when it is not a Batchyard step's lineage query
     */
    public static Optional<ExecutedQuery> extract(Function<String, String> conf, String queryText, String hiveQueryId,
                                                  String operationName, String currentDatabase) {
        if (queryText == null || queryText.isBlank()) {
            return Optional.empty();
        }
        if (operationName != null && !LINEAGE_OPERATIONS.contains(operationName)) {
            return Optional.empty();
        }
        Long processId = positiveId(first(conf, PROCESS_ID, BDRE_PROCESS_ID));
        if (processId == null) {
            // Not run by a Batchyard step (or the workflow did not say which): nothing to attribute it to.
            return Optional.empty();
        }
        // An unresolved EL expression (${wf:actionData(...)}) or an empty value means the run is not known.
        Long run = positiveId(first(conf, INSTANCE_EXEC_ID, BDRE_INSTANCE_EXEC_ID));
        String text = queryText.strip();
        String database = currentDatabase == null || currentDatabase.isBlank() ? null : currentDatabase.strip();
        return Optional.of(new ExecutedQuery(queryId(hiveQueryId, processId, run), text, processId, run, database));
    }

    /**
     * The same execution always gets the same id, so a re-sent record registers nothing twice; Hive's query id is
     * unique per execution, and the process and run are part of the name in case two Hive servers ever repeat one.
     */
    static UUID queryId(String hiveQueryId, long processId, Long run) {
        if (hiveQueryId == null || hiveQueryId.isBlank()) {
            return null;
        }
        String name = "batchyard-hive-hook|" + hiveQueryId.strip() + "|" + processId + "|" + (run == null ? "" : run);
        return UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8));
    }

    private static String first(Function<String, String> conf, String name, String fallback) {
        String value = conf.apply(name);
        return value == null || value.isBlank() ? conf.apply(fallback) : value;
    }

    /** A decimal id above zero, else null (absent, blank, an unresolved expression, zero or negative). */
    static Long positiveId(String value) {
        if (value == null) {
            return null;
        }
        try {
            long id = Long.parseLong(value.strip());
            return id > 0 ? id : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
