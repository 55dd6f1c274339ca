package io.batchyard.eventing;

import io.batchyard.persistence.InOrder;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The outbox table. Business transactions insert rows through their Hibernate Reactive session; the relay reads and
 * marks them with single statements (no transaction) on the connection that holds the relay lock and listens for
 * commits. The gauges' sample and the retention's deletes are single statements on the pool, outside any transaction
 * of the service.
 */
@ApplicationScoped
public class OutboxRepository extends SqlRepository {

    /** Rows one multi-row INSERT carries at most: 6 parameters each, far below PostgreSQL's 65,535 per statement. */
    static final int ROWS_PER_INSERT = 1000;

    /**
     * Session-level advisory lock: one relay per database at a time, so replicas never reorder a key's events. Held by
     * the leading relay's connection for as long as it leads; PostgreSQL releases it when that connection ends.
     */
    private static final long RELAY_LOCK = 0x0B47C4_0B0BL;

    /** The channel that the outbox trigger (migration V0_6) notifies when outbox rows commit. */
    private static final String CHANNEL = "batchyard_outbox";

    /** The unpublished rows: how many, and the age of the oldest (0 when there is none). */
    record Backlog(long rows, double oldestSeconds) {
    }

    /** A row waiting to be published. */
    record Pending(long position, UUID eventId, String topic, String key, String eventType, byte[] payload,
                   String traceparent) {
    }

    Uni<Void> insert(OutboxEvent row) {
        return Transactions.current().chain(session -> session.persist(row));
    }

    /**
     * Inserts the rows with one statement per {@link #ROWS_PER_INSERT}, in the transaction's session like
     * {@link #insert}. The rows of one VALUES list take their identity positions in list order, so the relay
     * publishes them in the order they were appended.
     */
    Uni<Void> insertAll(List<OutboxEvent> rows) {
        if (rows.size() <= 1) {
            return rows.isEmpty() ? Uni.createFrom().voidItem() : insert(rows.get(0));
        }
        List<List<OutboxEvent>> chunks = new ArrayList<>();
        for (int from = 0; from < rows.size(); from += ROWS_PER_INSERT) {
            chunks.add(rows.subList(from, Math.min(rows.size(), from + ROWS_PER_INSERT)));
        }
        return Transactions.current().chain(() -> InOrder.each(chunks, OutboxRepository::insertChunk));
    }

    private static Uni<Integer> insertChunk(List<OutboxEvent> chunk) {
        StringBuilder sql = new StringBuilder(
                "INSERT INTO outbox_event (event_id, topic, record_key, event_type, payload, traceparent) VALUES ");
        Params params = Params.none();
        for (int i = 0; i < chunk.size(); i++) {
            OutboxEvent row = chunk.get(i);
            sql.append(i == 0 ? "" : ", ").append("(:e%1$d, :t%1$d, :k%1$d, :y%1$d, :p%1$d, CAST(:c%1$d AS text))".formatted(i));
            params.and("e" + i, row.eventId).and("t" + i, row.topic).and("k" + i, row.recordKey)
                    .and("y" + i, row.eventType).and("p" + i, row.payload).and("c" + i, row.traceparent);
        }
        return update(sql.toString(), params);
    }

    /**
     * The body of a {@code WITH} item that inserts one row, built ahead, once per row of {@code source}; see
     * {@link StagedEvent}. The notify trigger fires for it as for any insert.
     */
    static String insertSelect(String source) {
        return """
                INSERT INTO outbox_event (event_id, topic, record_key, event_type, payload, traceparent)
                SELECT CAST(:outbox_event_id AS uuid), :outbox_topic, :outbox_key, :outbox_type, :outbox_payload,
                  CAST(:outbox_traceparent AS text)
                FROM %s
                RETURNING position""".formatted(source);
    }

    static Params insertSelectParams(OutboxEvent row) {
        return Params.of("outbox_event_id", row.eventId.toString()).and("outbox_topic", row.topic)
                .and("outbox_key", row.recordKey).and("outbox_type", row.eventType).and("outbox_payload", row.payload)
                .and("outbox_traceparent", row.traceparent);
    }

    /** True when this session now holds the relay lock; false while another session holds it. */
    Uni<Boolean> tryRelayLock(SqlConnection session) {
        return session.preparedQuery("SELECT pg_try_advisory_lock($1) AS locked").execute(Tuple.of(RELAY_LOCK))
                .map(rows -> rows.iterator().next().getBoolean("locked"));
    }

    /** Has this session's connection receive a notification whenever outbox rows commit. */
    Uni<Void> listen(SqlConnection session) {
        return session.query("LISTEN " + CHANNEL).execute().replaceWithVoid();
    }

    /**
     * Undoes {@link #tryRelayLock} and {@link #listen} on a session that lives on: the relay's connection comes from the
     * pool and goes back to it, where it must not keep the lock.
     */
    Uni<Void> resign(SqlConnection session) {
        return session.query("UNLISTEN " + CHANNEL).execute()
                .chain(() -> session.preparedQuery("SELECT pg_advisory_unlock($1)").execute(Tuple.of(RELAY_LOCK)))
                .replaceWithVoid();
    }

    /**
     * The next {@code limit} unpublished rows in outbox order. {@code acknowledged}: rows a pass before sent and the
     * broker acknowledged, marked published by this same statement (and so not among the rows it answers); a pass
     * under load then costs one statement instead of two.
     */
    Uni<List<Pending>> unpublished(SqlConnection session, int limit, List<Long> acknowledged) {
        var query = acknowledged.isEmpty()
                ? session.preparedQuery("""
                        SELECT position, event_id, topic, record_key, event_type, payload, traceparent
                        FROM outbox_event WHERE published_at IS NULL ORDER BY position LIMIT $1""")
                        .execute(Tuple.of(limit))
                : session.preparedQuery("""
                        WITH marked AS (
                          UPDATE outbox_event SET published_at = now(), attempts = attempts + 1
                          WHERE position = ANY($2))
                        SELECT position, event_id, topic, record_key, event_type, payload, traceparent
                        FROM outbox_event WHERE published_at IS NULL AND position <> ALL($2)
                        ORDER BY position LIMIT $1""")
                        .execute(Tuple.of(limit, acknowledged.toArray(Long[]::new)));
        return query
                .map(rows -> {
                    List<Pending> pending = new ArrayList<>(rows.size());
                    rows.forEach(r -> pending.add(new Pending(r.getLong("position"), r.getUUID("event_id"),
                            r.getString("topic"), r.getString("record_key"), r.getString("event_type"),
                            r.getBuffer("payload").getBytes(), r.getString("traceparent"))));
                    return pending;
                });
    }

    Uni<Void> markPublished(SqlConnection session, List<Long> positions) {
        if (positions.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return session.preparedQuery("""
                        UPDATE outbox_event SET published_at = now(), attempts = attempts + 1
                        WHERE position = ANY($1)""")
                .execute(Tuple.of(positions.toArray(Long[]::new)))
                .replaceWithVoid();
    }

    /**
     * Counts the unpublished rows through the partial index on them ({@code outbox_event_unpublished}), which holds
     * only the backlog, so the statement costs what the backlog is, however large the published history.
     */
    Uni<Backlog> backlog(Pool pool) {
        return pool.query("""
                        SELECT count(*) AS total,
                               CAST(COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0) AS double precision) AS oldest
                        FROM outbox_event WHERE published_at IS NULL""")
                .execute()
                .map(rows -> {
                    Row r = rows.iterator().next();
                    return new Backlog(r.getLong("total"), Math.max(0, r.getDouble("oldest")));
                });
    }

    /**
     * Deletes at most {@code limit} rows published more than {@code window} ago; one statement, so one short
     * transaction. Rows another pruner is deleting are skipped rather than waited for, so pruners of several replicas
     * share the work instead of queueing behind each other. An unpublished row never matches.
     */
    Uni<Integer> deletePublishedBefore(SqlClient client, Duration window, int limit) {
        return client.preparedQuery("""
                        DELETE FROM outbox_event WHERE position IN (
                            SELECT position FROM outbox_event
                            WHERE published_at IS NOT NULL AND published_at < now() - make_interval(secs => $1)
                            LIMIT $2 FOR UPDATE SKIP LOCKED)""")
                .execute(Tuple.of(window.toMillis() / 1000.0, limit))
                .map(rows -> rows.rowCount());
    }

    Uni<Void> markFailed(SqlConnection session, long position, String error) {
        return session.preparedQuery("UPDATE outbox_event SET attempts = attempts + 1, last_error = $1 WHERE position = $2")
                .execute(Tuple.of(error, position))
                .replaceWithVoid();
    }
}
