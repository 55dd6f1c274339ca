package io.batchyard.lineage.openlineage.push;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The relay's side of {@code openlineage_outbox}, on the reactive client's pool and blocking (the relay runs on a
 * thread of its own). A pass holds a transaction-level advisory lock, so two replicas never send one run's events
 * concurrently or out of order.
 */
@ApplicationScoped
public class PushOutboxRepository {

    /** Arbitrary constant naming the lock of this relay (the event outbox relay uses another). */
    private static final long PUSH_LOCK = 0x4F4C_5055_5348L;
    private static final Duration WAIT = Duration.ofSeconds(30);

    /** The oldest unsent event of one run on one transport. */
    public record Pending(long seq, String transport, UUID runId, String payload, int attempts) {
    }

    /** Sends one event; returns null when it was delivered, else why not. */
    @FunctionalInterface
    public interface Sender {
        String send(Pending event);
    }

    /** What a pass did. */
    public record Pass(int sent, int failed) {
    }

    private final Pool pool;

    public PushOutboxRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Sends the head event of each run whose retry time has come, oldest first; a delivered event is marked sent, a
     * failed one waits {@code backoff(attempts)} and keeps the events behind it waiting too. Another replica's pass
     * in progress makes this one a no-op.
     */
    public Pass pass(int limit, Sender sender, java.util.function.IntFunction<Duration> backoff) {
        SqlConnection c = pool.getConnection().await().atMost(WAIT);
        try {
            var tx = c.begin().await().atMost(WAIT);
            try {
                boolean locked = c.preparedQuery("SELECT pg_try_advisory_xact_lock($1)").execute(Tuple.of(PUSH_LOCK))
                        .await().atMost(WAIT).iterator().next().getBoolean(0);
                Pass pass = locked ? send(c, limit, sender, backoff) : new Pass(0, 0);
                tx.commit().await().atMost(WAIT);
                return pass;
            } catch (RuntimeException e) {
                tx.rollback().await().atMost(WAIT);
                throw e;
            }
        } finally {
            c.close().await().atMost(WAIT);
        }
    }

    private static Pass send(SqlConnection c, int limit, Sender sender,
                             java.util.function.IntFunction<Duration> backoff) {
        List<Pending> heads = new ArrayList<>();
        c.preparedQuery("""
                        SELECT event_seq, transport, run_id, payload, attempts FROM (
                            SELECT DISTINCT ON (transport, run_id) event_seq, transport, run_id, payload, attempts,
                                   next_attempt_at
                              FROM openlineage_outbox WHERE sent_at IS NULL
                             ORDER BY transport, run_id, event_seq) head
                         WHERE next_attempt_at <= now() ORDER BY event_seq LIMIT $1""")
                .execute(Tuple.of(limit)).await().atMost(WAIT)
                .forEach((Row r) -> heads.add(new Pending(r.getLong(0), r.getString(1), r.getUUID(2), r.getString(3),
                        r.getInteger(4))));
        int sent = 0;
        int failed = 0;
        for (Pending p : heads) {
            String error = sender.send(p);
            if (error == null) {
                c.preparedQuery("UPDATE openlineage_outbox SET sent_at = now(), attempts = attempts + 1, "
                        + "last_error = NULL WHERE event_seq = $1").execute(Tuple.of(p.seq())).await().atMost(WAIT);
                sent++;
            } else {
                c.preparedQuery("""
                                UPDATE openlineage_outbox SET attempts = attempts + 1, last_error = left($2, 2000),
                                       next_attempt_at = now() + $3 * interval '1 millisecond'
                                 WHERE event_seq = $1""")
                        .execute(Tuple.of(p.seq(), error, backoff.apply(p.attempts() + 1).toMillis()))
                        .await().atMost(WAIT);
                failed++;
            }
        }
        return new Pass(sent, failed);
    }

    /** Events not yet delivered, over all runs and transports. */
    public long backlog() {
        return pool.query("SELECT count(*) FROM openlineage_outbox WHERE sent_at IS NULL").execute()
                .await().atMost(WAIT).iterator().next().getLong(0);
    }

    /** Forgets delivered events older than {@code keep}. */
    public void purge(Duration keep) {
        pool.preparedQuery("DELETE FROM openlineage_outbox WHERE sent_at < now() - $1 * interval '1 millisecond'")
                .execute(Tuple.of(keep.toMillis())).await().atMost(WAIT);
    }
}
