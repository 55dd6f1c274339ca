package io.batchyard.client.hive;

import io.batchyard.hiveql.HiveScript;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * Decides which statements of what Hive executed are registered, and with what: the rules of the hook, free of Hive
 * types. What Hive hands the hook may be a whole script: it is split into its statements ({@link HiveScript}: on
 * {@code ;} outside quotes, comments removed, whitespace runs made one space), and each but {@code SET} is registered
 * on its own, in the script's order.
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
     * TABLE teaches it a table's columns). USE, SET, DROP, ALTER, LOAD, SHOW and the like carry none: a text of one
     * such statement is not sent.
     */
    static final Set<String> LINEAGE_OPERATIONS = Set.of("QUERY", "CREATETABLE", "CREATETABLE_AS_SELECT",
            "CREATEVIEW", "ALTERVIEW_AS", "CREATE_MATERIALIZED_VIEW");

    private QueryExtraction() {
    }

    /** Why a text that holds statements to register registers none of them. */
    public enum Missing {
        /** Neither {@code batchyard.lineage.processId} nor {@code bdre.lineage.processId} holds an id above 0. */
        PROCESS_ID,
        /** The process is named but the run is not (absent, or an EL expression Oozie did not resolve). */
        RUN_ID
    }

    /**
     * What one text Hive ran registers.
     *
     * @param queries the statements to register, in the order of the text
     * @param missing why nothing is registered although the text has statements to register, or null
     */
    public record Extraction(List<ExecutedQuery> queries, Missing missing) {

        public Extraction {
            queries = List.copyOf(queries);
        }

        static Extraction none() {
            return new Extraction(List.of(), null);
        }
    }

    /**
     * @param conf          the job configuration (HiveConf) by property name
     * @param queryText     what Hive ran: one statement, or a script of several
     * @param hiveQueryId   Hive's id of this execution ({@code hive_<time>_<uuid>}), or null
     * @param operationName Hive's operation name, or null when unknown (then it is sent)
     * @param currentDatabase the session's current database, or null
     * @return one query per statement to register; none when the text is not a Batchyard step's lineage
     */
    public static Extraction extract(Function<String, String> conf, String queryText, String hiveQueryId,
                                     String operationName, String currentDatabase) {
        if (queryText == null || queryText.isBlank()) {
            return Extraction.none();
        }
        List<String> statements = HiveScript.statements(queryText);
        // Hive's operation names a text of one statement; of a script it can only name one of them, so there each
        // statement goes (lineage-service skips those without lineage itself).
        if (statements.size() == 1 && operationName != null && !LINEAGE_OPERATIONS.contains(operationName)) {
            return Extraction.none();
        }
        if (statements.stream().allMatch(QueryExtraction::isSet)) {
            return Extraction.none();
        }
        Long processId = positiveId(first(conf, PROCESS_ID, BDRE_PROCESS_ID));
        if (processId == null) {
            // Not run by a Batchyard step (or the workflow did not say which): nothing to attribute it to.
            return new Extraction(List.of(), Missing.PROCESS_ID);
        }
        // An unresolved EL expression (${wf:actionData(...)}) or an empty value means the run is not known, and a
        // query without its run would join no run's lineage.
        Long run = positiveId(first(conf, INSTANCE_EXEC_ID, BDRE_INSTANCE_EXEC_ID));
        if (run == null) {
            return new Extraction(List.of(), Missing.RUN_ID);
        }
        String database = currentDatabase == null || currentDatabase.isBlank() ? null : currentDatabase.strip();
        List<ExecutedQuery> queries = new ArrayList<>();
        for (int i = 0; i < statements.size(); i++) {
            String statement = statements.get(i);
            if (isSet(statement)) {
                continue; // Hive has already substituted the variables a SET defines into what follows it
            }
            queries.add(new ExecutedQuery(queryId(hiveQueryId, processId, run, i), statement, processId, run,
                    database));
            // The statements after a USE run in its database, whatever the session's is once the script is done.
            String used = usedDatabase(statement);
            database = used == null ? database : used;
        }
        return new Extraction(queries, null);
    }

    private static boolean isSet(String statement) {
        return keyword(statement).equals("set");
    }

    /** The database a {@code USE db} statement switches to, else null. */
    static String usedDatabase(String statement) {
        String[] words = statement.split(" ");
        if (words.length != 2 || !keyword(statement).equals("use")) {
            return null;
        }
        String db = words[1];
        return db.length() > 2 && db.startsWith("`") && db.endsWith("`") ? db.substring(1, db.length() - 1) : db;
    }

    private static String keyword(String statement) {
        int space = statement.indexOf(' ');
        return (space < 0 ? statement : statement.substring(0, space)).toLowerCase(Locale.ROOT);
    }

    /**
     * The same statement of the same execution always gets the same id, so a re-sent record registers nothing twice;
     * Hive's query id is unique per execution, the statement's place tells a script's statements apart, and the
     * process and run are part of the name in case two Hive servers ever repeat one.
     */
    static UUID queryId(String hiveQueryId, long processId, long run, int statement) {
        if (hiveQueryId == null || hiveQueryId.isBlank()) {
            return null;
        }
        String name = "batchyard-hive-hook|" + hiveQueryId.strip() + "|" + processId + "|" + run + "|" + statement;
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
