package io.batchyard.eventing;

import io.batchyard.persistence.Blocking;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Runs work the way a service method does ({@code Panache.withTransaction} on a Vert.x context) and reads the tables
 * back on the application's reactive pool, outside any transaction.
 */
@ApplicationScoped
class TransactionFixture {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Pool pool;
    private volatile boolean migrated;

    TransactionFixture(Pool pool) {
        this.pool = pool;
    }

    /** Creates the eventing tables (once) and a table for the tests' effects. */
    void prepare() {
        if (migrated) {
            return;
        }
        boolean present = pool.query("SELECT to_regclass('outbox_event') IS NOT NULL").execute()
                .await().atMost(TIMEOUT).iterator().next().getBoolean(0);
        if (!present) {
            EventingFixture.MIGRATIONS.forEach(migration ->
                    pool.query(EventingFixture.resource(migration)).execute().await().atMost(TIMEOUT));
        }
        pool.query("CREATE TABLE IF NOT EXISTS test_effect (consumer TEXT NOT NULL, event_id UUID NOT NULL)")
                .execute().await().atMost(TIMEOUT);
        migrated = true;
    }

    /** Runs {@code work} in one transaction, as a {@code @WithTransaction} service method would, and waits for it. */
    <T> T inTransaction(Supplier<Uni<T>> work) {
        return Blocking.await(() -> Panache.withTransaction(work));
    }

    /** Runs {@code work} on a Vert.x context without opening a transaction. */
    <T> T withoutTransaction(Supplier<Uni<T>> work) {
        return Blocking.await(() -> Panache.withSession(work));
    }

    /** A business effect written with the caller's session: a row in {@code test_effect}. */
    Uni<Void> effect(String consumer, UUID eventId) {
        return Panache.getSession().chain(s -> s.createNativeQuery(
                        "INSERT INTO test_effect (consumer, event_id) VALUES (:consumer, :id)")
                .setParameter("consumer", consumer).setParameter("id", eventId).executeUpdate()).replaceWithVoid();
    }

    long count(String sql, Object... params) {
        return pool.preparedQuery(sql).execute(Tuple.tuple(List.of(params))).await().atMost(TIMEOUT)
                .iterator().next().getLong(0);
    }
}
