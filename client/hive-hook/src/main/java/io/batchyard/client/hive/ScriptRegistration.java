package io.batchyard.client.hive;

import io.batchyard.client.hive.QueryExtraction.Extraction;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * All the hook does once it has read Hive's objects, with no Hive type: the text Hive ran becomes one registered query
 * per statement ({@link QueryExtraction}), sent in the text's order ({@link QuerySender}). A text that cannot be
 * registered (no process or run in the job configuration, no broker or registry named) says why once per JVM at
 * WARN, not once per statement: HiveServer2 runs the hook for every query of every session.
 */
public final class ScriptRegistration {

    private static final Logger LOG = LoggerFactory.getLogger(ScriptRegistration.class);
    private static final Set<Object> WARNED = ConcurrentHashMap.newKeySet();
    private static final String UNCONFIGURED = "unconfigured";

    private ScriptRegistration() {
    }

    /**
     * @param conf        the job configuration by property name
     * @param kafka       the producer settings under {@link HookSettings#KAFKA_PREFIX}, prefix removed
     * @param queryText   what Hive ran: one statement or a script
     * @param hiveQueryId Hive's id of the execution, or null
     * @param operation   Hive's operation name, or null
     * @param database    the session's current database, or null
     * @return how many statements the broker acknowledged
     */
    public static int register(Function<String, String> conf, Map<String, String> kafka, String queryText,
                        String hiveQueryId, String operation, String database) {
        Extraction extraction = QueryExtraction.extract(conf, queryText, hiveQueryId, operation, database);
        if (extraction.missing() != null) {
            if (firstTime(extraction.missing())) {
                LOG.warn("Batchyard lineage: queries are not registered: {}", why(extraction.missing()));
            }
            return 0;
        }
        if (extraction.queries().isEmpty()) {
            return 0;
        }
        HookSettings settings = HookSettings.from(conf, kafka);
        if (!settings.configured()) {
            if (firstTime(UNCONFIGURED)) {
                LOG.warn("Batchyard lineage: {} and {} must both be set; queries are not registered",
                        HookSettings.BOOTSTRAP_SERVERS, HookSettings.REGISTRY_URL);
            }
            return 0;
        }
        QuerySender sender = QuerySender.shared(settings);
        int sent = 0;
        for (ExecutedQuery query : extraction.queries()) {
            sent += sender.send(query) ? 1 : 0;
        }
        return sent;
    }

    /** Whether this JVM has not warned about {@code reason} yet; true once per reason. */
    static boolean firstTime(Object reason) {
        return WARNED.add(reason);
    }

    private static String why(QueryExtraction.Missing missing) {
        return switch (missing) {
            case PROCESS_ID -> "the job configuration names no process (" + QueryExtraction.PROCESS_ID + " or "
                    + QueryExtraction.BDRE_PROCESS_ID + " above 0); only a Batchyard step's queries are registered";
            case RUN_ID -> "the job configuration names the process but no run (" + QueryExtraction.INSTANCE_EXEC_ID
                    + " or " + QueryExtraction.BDRE_INSTANCE_EXEC_ID + " above 0; an EL expression Oozie did not "
                    + "resolve is none), and a query without its run belongs to no run's lineage";
        };
    }
}
