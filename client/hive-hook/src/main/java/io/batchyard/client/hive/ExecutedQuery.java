package io.batchyard.client.hive;

import java.util.UUID;

/**
 * One query Hive executed, as lineage-service registers it: everything the hook took from Hive, with no Hive type.
 *
 * @param queryId        stable id of this execution (re-sending it registers nothing new), or null when Hive gave none
 * @param queryText      one statement of what Hive ran (variables already substituted), without comments and with
 *                       each whitespace run made one space
 * @param processId      the (sub-)process whose step ran the query
 * @param instanceExecId the run the query belongs to
 * @param defaultDatabase the database the statement ran in (the session's, or that of a USE before it in the same
 *                       script), or null when unknown
 */
public record ExecutedQuery(UUID queryId, String queryText, long processId, Long instanceExecId,
                            String defaultDatabase) {
}
