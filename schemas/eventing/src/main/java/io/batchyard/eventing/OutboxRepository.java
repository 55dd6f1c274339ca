package io.batchyard.eventing;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The outbox table. Business transactions insert rows through their Hibernate Reactive session; the relay reads and
 * marks them on a connection of its own, in a transaction that holds the relay lock.
 */
@ApplicationScoped
public class OutboxRepository {

    /** Transaction-scoped advisory lock: one relay per database at a time, so replicas never reorder a key's events. */
    private static final long RELAY_LOCK = 0x0B47C4_0B0BL;

    /** A row waiting to be published. */
    record Pending(long position, UUID eventId, String topic, String key, String eventType, byte[] payload) {
    }

    Uni<Void> insert(OutboxEvent row) {
        return Transactions.current().chain(session -> session.persist(row));
    }

    /** True when this transaction now holds the relay lock; false while another relay holds it. */
    Uni<Boolean> tryRelayLock(SqlConnection tx) {
        return tx.preparedQuery("SELECT pg_try_advisory_xact_lock($1)").execute(Tuple.of(RELAY_LOCK))
                .map(rows -> rows.iterator().next().getBoolean(0));
    }

    Uni<List<Pending>> unpublished(SqlConnection tx, int limit) {
        return tx.preparedQuery("""
                        SELECT position, event_id, topic, record_key, event_type, payload
                        FROM outbox_event WHERE published_at IS NULL ORDER BY position LIMIT $1""")
                .execute(Tuple.of(limit))
                .map(rows -> {
                    List<Pending> pending = new ArrayList<>(rows.size());
                    rows.forEach(r -> pending.add(new Pending(r.getLong(0), r.getUUID(1), r.getString(2), r.getString(3),
                            r.getString(4), r.getBuffer(5).getBytes())));
                    return pending;
                });
    }

    Uni<Void> markPublished(SqlConnection tx, List<Long> positions) {
        if (positions.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return tx.preparedQuery("""
                        UPDATE outbox_event SET published_at = now(), attempts = attempts + 1
                        WHERE position = ANY($1)""")
                .execute(Tuple.of(positions.toArray(Long[]::new)))
                .replaceWithVoid();
    }

    Uni<Void> markFailed(SqlConnection tx, long position, String error) {
        return tx.preparedQuery("UPDATE outbox_event SET attempts = attempts + 1, last_error = $1 WHERE position = $2")
                .execute(Tuple.of(error, position))
                .replaceWithVoid();
    }
}
