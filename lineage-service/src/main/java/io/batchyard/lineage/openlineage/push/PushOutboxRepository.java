package io.batchyard.lineage.openlineage.push;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The relay's side of {@code openlineage_outbox}, on the reactive client's pool and blocking (the relay runs on a
 * thread of its own). Claim-then-send: {@link #claim} takes a lease on the due rows of each run in one short
 * transaction ({@code FOR UPDATE SKIP LOCKED}), the events are sent with no transaction open, and each outcome is one
 * statement ({@link #sent}, {@link #failed}). A run is only claimed from its oldest unsent row on, and not while that
 * row is leased or waiting for its retry, so two replicas never send one run's events concurrently or out of order.
 */
@ApplicationScoped
public class PushOutboxRepository {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** An unsent event of one run on one transport. */
    public record Pending(long seq, String transport, UUID runId, String payload, int attempts) {
    }

    /** Rows leased under {@code token}: per run and transport, its oldest unsent events in order. */
    public record Claim(UUID token, List<List<Pending>> runs) {
    }

    private final Pool pool;

    public PushOutboxRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Leases up to {@code limit} due events of the given transports for {@code lease}: per run and transport at most
     * {@code perRun} of its oldest unsent events, and only if the oldest is due (its retry time has come) and not
     * leased by someone else. Rows another claim is taking right now are skipped; a run whose claimable rows would not
     * start at its oldest one is left alone entirely.
     */
    public Claim claim(List<String> transports, int limit, int perRun, Duration lease) {
        UUID token = UUID.randomUUID();
        SqlConnection c = pool.getConnection().await().atMost(WAIT);
        try {
            var tx = c.begin().await().atMost(WAIT);
            try {
                Map<String, List<Pending>> runs = new LinkedHashMap<>();
                Map<String, Long> nextRank = new LinkedHashMap<>();
                // FOR UPDATE may not sit beside window functions, so the heads are found in a CTE and the rows locked
                // outside it; the claim conditions are repeated on the locked row, where PostgreSQL re-checks them
                // against a claim committed meanwhile.
                c.preparedQuery("""
                                WITH due AS (
                                    SELECT event_seq, rn FROM (
                                        SELECT event_seq,
                                               row_number() OVER w AS rn,
                                               first_value(next_attempt_at) OVER w AS head_due,
                                               first_value(claimed_until) OVER w AS head_claim
                                          FROM openlineage_outbox
                                         WHERE sent_at IS NULL AND transport = ANY($1)
                                        WINDOW w AS (PARTITION BY transport, run_id ORDER BY event_seq)) k
                                     WHERE head_due <= now() AND (head_claim IS NULL OR head_claim < now())
                                       AND rn <= $3)
                                SELECT o.event_seq, o.transport, o.run_id, o.payload, o.attempts, d.rn
                                  FROM openlineage_outbox o JOIN due d ON d.event_seq = o.event_seq
                                 WHERE o.sent_at IS NULL AND (o.claimed_until IS NULL OR o.claimed_until < now())
                                 ORDER BY o.event_seq LIMIT $2
                                   FOR UPDATE OF o SKIP LOCKED""")
                        .execute(Tuple.of(transports.toArray(String[]::new), limit, perRun)).await().atMost(WAIT)
                        .forEach((Row r) -> {
                            Pending p = new Pending(r.getLong(0), r.getString(1), r.getUUID(2), r.getString(3),
                                    r.getInteger(4));
                            String key = p.transport() + "/" + p.runId();
                            long rank = r.getLong(5);
                            // Only an unbroken run from the oldest row on: a skipped (locked) row in front of this
                            // one belongs to someone else's claim, and sending past it would overtake it.
                            if (rank == nextRank.getOrDefault(key, 1L)) {
                                runs.computeIfAbsent(key, k -> new ArrayList<>()).add(p);
                                nextRank.put(key, rank + 1);
                            } else {
                                nextRank.put(key, -1L);
                            }
                        });
                long[] seqs = runs.values().stream().flatMap(List::stream).mapToLong(Pending::seq).toArray();
                if (seqs.length > 0) {
                    c.preparedQuery("""
                                    UPDATE openlineage_outbox
                                       SET claim_token = $1, claimed_until = now() + $2 * interval '1 millisecond'
                                     WHERE event_seq = ANY($3)""")
                            .execute(Tuple.of(token, lease.toMillis(), java.util.Arrays.stream(seqs).boxed()
                                    .toArray(Long[]::new)))
                            .await().atMost(WAIT);
                }
                tx.commit().await().atMost(WAIT);
                return new Claim(token, List.copyOf(runs.values()));
            } catch (RuntimeException e) {
                tx.rollback().await().atMost(WAIT);
                throw e;
            }
        } finally {
            c.close().await().atMost(WAIT);
        }
    }

    /** The event was delivered; a claim lost meanwhile (lease ran out) leaves the row to its new holder. */
    public void sent(Pending event, UUID token) {
        pool.preparedQuery("""
                        UPDATE openlineage_outbox SET sent_at = now(), attempts = attempts + 1, last_error = NULL,
                               claim_token = NULL, claimed_until = NULL
                         WHERE event_seq = $1 AND claim_token = $2""")
                .execute(Tuple.of(event.seq(), token)).await().atMost(WAIT);
    }

    /**
     * The event was not delivered: it waits {@code retryIn}, and the rest of its run's claim is given up in the same
     * statement, so nothing behind it leaves first.
     */
    public void failed(Pending event, UUID token, String error, Duration retryIn) {
        pool.preparedQuery("""
                        UPDATE openlineage_outbox SET claim_token = NULL, claimed_until = NULL,
                               attempts = attempts + CASE WHEN event_seq = $1 THEN 1 ELSE 0 END,
                               last_error = CASE WHEN event_seq = $1 THEN left($3, 2000) ELSE last_error END,
                               next_attempt_at = CASE WHEN event_seq = $1
                                                      THEN now() + $4 * interval '1 millisecond'
                                                      ELSE next_attempt_at END
                         WHERE claim_token = $2 AND transport = $5 AND run_id = $6""")
                .execute(Tuple.from(List.of(event.seq(), token, error, retryIn.toMillis(), event.transport(),
                        event.runId())))
                .await().atMost(WAIT);
    }

    /** Gives up whatever is still leased under {@code token} (not sent because the pass stopped early). */
    public void release(UUID token) {
        pool.preparedQuery("UPDATE openlineage_outbox SET claim_token = NULL, claimed_until = NULL "
                + "WHERE claim_token = $1").execute(Tuple.of(token)).await().atMost(WAIT);
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
