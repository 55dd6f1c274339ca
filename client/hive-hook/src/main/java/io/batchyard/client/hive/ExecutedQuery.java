package io.batchyard.client.hive;

import java.util.UUID;

/**
 * One query Hive executed, as lineage-service registers it: everything the hook took from Hive, with no Hive type.
 *
 * @param queryId        stable id of this execution (re-sending it registers nothing new), or null when Hive gave none
 * @param queryText      the statement as Hive ran it (variables already substituted)
 * @param processId      the (sub-)process whose step ran the query
 * @param instanceExecId the run the query belongs to, or null when the job configuration names none
 * @param defaultDatabase the session's current database, or null when unknown
 */
public record ExecutedQuery(UUID queryId, String queryText, long processId, Long instanceExecId,
                            String defaultDatabase) {
}
