package io.batchyard.eventing;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.schemas.Events;
import io.batchyard.teststack.Infrastructure;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Retention on a real PostgreSQL and broker, with a window of two seconds: a consumer applies events through the ledger
 * and emits one event each through the outbox, a relay publishes them, and a pruner runs every half second. The tables
 * stop growing at what the window holds, a redelivery inside the window still changes nothing, and a row the relay
 * never published stays, however old.
 */
@EventingQuarkusTest
class RetentionTest {

    private static final Duration WINDOW = Duration.ofSeconds(2);
    private static final Duration PRUNE_EVERY = Duration.ofMillis(500);
    private static final Duration LOAD = Duration.ofSeconds(8);
    /** One event every 40 ms: a steady 25 per second, below what even a cold JVM applies. */
    private static final Duration PACE = Duration.ofMillis(40);
    /** How long a row may outlive the window: until the next prune, plus its publication and the sample's own time. */
    private static final Duration LIVES_AT_MOST = PRUNE_EVERY.multipliedBy(2).plusMillis(500);
    private static final String CONSUMER = "retention-test";

    @Inject
    Outbox outbox;

    @Inject
    ProcessedEventLedger ledger;

    @Inject
    TransactionFixture tx;

    @Inject
    Pool pool;

    @Inject
    OutboxRepository outboxRows;

    @Inject
    ProcessedEventRepository ledgerRows;

    private final String bootstrap = Infrastructure.get().kafkaBootstrapServers();

    @BeforeEach
    void tables() {
        tx.prepare();
    }

    @Test
    void underSteadyLoadTheTablesStayBoundedRedeliveriesStayDroppedAndUnpublishedRowsStay() throws Exception {
        // The bounds count this test's own rows: what earlier tests left (unpublished rows among them, which this
        // test's relay would publish now and so keep inside the window for its first seconds) goes first.
        pool.query("DELETE FROM outbox_event").execute().await().atMost(Duration.ofSeconds(30));
        pool.query("DELETE FROM processed_event").execute().await().atMost(Duration.ofSeconds(30));
        // Small batches, so that a pass needs several statements.
        Retention retention = new Retention(pool, outboxRows, ledgerRows, true, WINDOW, 25, List.of());
        String topic = EventingFixture.freshTopic(bootstrap, "retention");
        OutboxRelay relay = EventingFixture.running(pool, bootstrap, Duration.ofMillis(100));
        List<ProcessDeleted> applied = new ArrayList<>();
        List<Long> appliedAt = new ArrayList<>();
        List<Long> sizes = new ArrayList<>();
        List<Long> bounds = new ArrayList<>();
        int redeliveries = 0;
        long start = System.nanoTime();
        long nextPrune = start + PRUNE_EVERY.toNanos();
        try {
            while (System.nanoTime() - start < LOAD.toNanos()) {
                ProcessDeleted event = EventingFixture.event(applied.size() % 7);
                assertThat(apply(event, topic)).isTrue();
                applied.add(event);
                appliedAt.add(System.nanoTime());
                long next = start + applied.size() * PACE.toNanos();
                Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
                if (System.nanoTime() >= nextPrune) {
                    retention.prune().await().atMost(Duration.ofSeconds(30));
                    nextPrune = System.nanoTime() + PRUNE_EVERY.toNanos();
                    sizes.add(rows());
                    bounds.add(System.nanoTime() - start > WINDOW.plus(LIVES_AT_MOST).toNanos()
                            ? bound(appliedAt, System.nanoTime()) : Long.MAX_VALUE);
                    // An event applied a moment ago, well inside the window, is delivered again just after a prune.
                    ProcessDeleted recent = applied.get(Math.max(0, applied.size() - 3));
                    assertThat(apply(recent, topic)).as("a redelivery inside the window is dropped").isFalse();
                    redeliveries++;
                }
            }
        } finally {
            EventingFixture.close(relay);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("[eventing] retention: %d events in %.1f s, rows after each prune %s, at most %s%n",
                applied.size(), seconds, sizes, bounds.stream().map(b -> b == Long.MAX_VALUE ? "-" : b.toString())
                        .toList());
        int full = 0;
        for (int i = 0; i < sizes.size(); i++) {
            if (bounds.get(i) != Long.MAX_VALUE) {
                full++;
                assertThat(sizes.get(i)).as("rows after prune %d", i).isLessThanOrEqualTo(bounds.get(i));
            }
        }
        assertThat(full).as("prunes once the window is full").isGreaterThan(4);
        assertThat(sizes.get(sizes.size() - 1)).as("under half of the %d rows written", 2 * applied.size())
                .isLessThan(applied.size());
        for (int i = 0; i < applied.size(); i += 25) {
            assertThat(effects(Events.eventId(applied.get(i)))).as("every event applied once").isEqualTo(1);
        }
        assertThat(redeliveries).isPositive();

        // The relay is gone: this row stays unpublished, and no pass deletes it however long it waits.
        ProcessDeleted stuck = EventingFixture.event(99);
        tx.inTransaction(() -> outbox.append(topic, 99, stuck));
        Thread.sleep(WINDOW.toMillis() + 500);
        Retention.Pruned last = retention.prune().await().atMost(Duration.ofSeconds(30));
        assertThat(last.outboxRows()).as("the load's last published rows went").isPositive();
        assertThat(tx.count("SELECT count(*) FROM outbox_event WHERE event_id = $1 AND published_at IS NULL",
                Events.eventId(stuck))).isEqualTo(1);
        assertThat(tx.count("SELECT count(*) FROM outbox_event WHERE published_at IS NOT NULL")).isZero();
        assertThat(tx.count("SELECT count(*) FROM processed_event WHERE consumer = $1", CONSUMER)).isZero();
    }

    /**
     * What the tables may hold right after a prune: the ledger row and the outbox row of every event applied within
     * the window and the time a row can outlive it (the interval until the prune after it, its publication, this
     * sample), and a few rows of slack for statements in flight.
     */
    private static long bound(List<Long> appliedAt, long now) {
        long since = now - WINDOW.plus(LIVES_AT_MOST).toNanos();
        return 2 * appliedAt.stream().filter(t -> t >= since).count() + 10;
    }

    /** One delivery, the way a consumer's service method handles it: the ledger row, the effect and its event. */
    private boolean apply(ProcessDeleted event, String topic) {
        UUID id = Events.eventId(event);
        return tx.inTransaction(() -> ledger.once(CONSUMER, event, () -> tx.effect(CONSUMER, id)
                .chain(() -> outbox.append(topic, event.getParentProcessId(),
                        EventingFixture.event(event.getParentProcessId())))));
    }

    private long rows() {
        return tx.count("SELECT (SELECT count(*) FROM outbox_event) + (SELECT count(*) FROM processed_event)");
    }

    private long effects(UUID eventId) {
        return tx.count("SELECT count(*) FROM test_effect WHERE consumer = $1 AND event_id = $2", CONSUMER, eventId);
    }
}
