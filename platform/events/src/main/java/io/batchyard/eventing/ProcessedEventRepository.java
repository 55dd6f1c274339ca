package io.batchyard.eventing;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The consumers' ledger table. Recording an event joins the caller's transaction; the retention's deletes are single
 * statements on the pool.
 */
@ApplicationScoped
public class ProcessedEventRepository {

    /** Records the event for the consumer; false if it was already there. */
    Uni<Boolean> insertIfAbsent(String consumer, UUID eventId, String eventType) {
        return Transactions.current().chain(session -> session.createNativeQuery("""
                        INSERT INTO processed_event (consumer, event_id, event_type) VALUES (:consumer, :id, :type)
                        ON CONFLICT DO NOTHING""")
                .setParameter("consumer", consumer)
                .setParameter("id", eventId)
                .setParameter("type", eventType)
                .executeUpdate()
                .map(inserted -> inserted == 1));
    }

    /**
     * Records each of the events for the consumer with one statement; the ids that were not there yet. The ids must be
     * distinct (each is one row of the insert).
     */
    Uni<Set<UUID>> insertAllIfAbsent(String consumer, List<UUID> eventIds, List<String> eventTypes) {
        // Two text arrays, split in the statement: neither a UUID nor an event type name holds a comma.
        return Transactions.current().chain(session -> session.createNativeQuery("""
                        INSERT INTO processed_event (consumer, event_id, event_type)
                        SELECT :consumer, e.id, e.type
                        FROM unnest(CAST(string_to_array(:ids, ',') AS uuid[]), string_to_array(:types, ',')) AS e(id, type)
                        ON CONFLICT DO NOTHING RETURNING CAST(event_id AS text)""", String.class)
                .setParameter("consumer", consumer)
                .setParameter("ids", eventIds.stream().map(UUID::toString).collect(Collectors.joining(",")))
                .setParameter("types", String.join(",", eventTypes))
                .getResultList()
                .map(inserted -> inserted.stream().map(UUID::fromString).collect(Collectors.toSet())));
    }

    /**
     * Deletes at most {@code limit} ledger rows recorded more than {@code window} ago; one statement, so one short
     * transaction, skipping rows another pruner holds. By primary key: a {@code ctid IN (subquery)} would be planned
     * as a join over the whole table.
     */
    Uni<Integer> deleteProcessedBefore(SqlClient client, Duration window, int limit) {
        return client.preparedQuery("""
                        DELETE FROM processed_event WHERE (consumer, event_id) IN (
                            SELECT consumer, event_id FROM processed_event
                            WHERE processed_at < now() - make_interval(secs => $1)
                            LIMIT $2 FOR UPDATE SKIP LOCKED)""")
                .execute(Tuple.of(window.toMillis() / 1000.0, limit))
                .map(rows -> rows.rowCount());
    }
}
