package io.batchyard.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.eventing.EventingFixture.OutboxRow;
import io.batchyard.eventing.EventingFixture.Published;
import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.schemas.Events;
import io.batchyard.teststack.Infrastructure;
import io.vertx.mutiny.sqlclient.Pool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The relay's own loop, woken by commits: its poll interval is an hour, so a row that goes out within seconds of its
 * commit went out because the commit woke the relay.
 */
class OutboxRelayWakeupTest {

    private static final Duration NEVER = Duration.ofHours(1);
    private static final Duration PROMPTLY = Duration.ofSeconds(10);

    private final String bootstrap = Infrastructure.get().kafkaBootstrapServers();
    private Pool db;
    private OutboxRelay relay;

    @BeforeEach
    void database() {
        db = EventingFixture.freshDatabase("eventing_wakeup");
    }

    @AfterEach
    void closeRelay() {
        EventingFixture.close(relay);
    }

    @Test
    void everyCommittedRowIsPublishedAtItsCommitWithoutPolling() {
        String topic = EventingFixture.freshTopic(bootstrap, "wakeup");
        relay = leadingRelay();

        List<Long> millis = new ArrayList<>();
        int rows = 20;
        for (int i = 0; i < rows; i++) {
            long committed = System.nanoTime();
            EventingFixture.append(db, topic, EventingFixture.event(i % 3));
            long expected = i + 1;
            await().atMost(PROMPTLY).pollInterval(Duration.ofMillis(2))
                    .until(() -> EventingFixture.published(relay) == expected);
            millis.add((System.nanoTime() - committed) / 1_000_000);
        }
        System.out.printf("[eventing] commit to broker ack with a poll interval of 1 h, ms: %s%n", millis);

        // Each row waited for the next commit to be marked by its pass's read; the last one, with no commit behind it,
        // is marked alone once the mark delay is over, far sooner than the hour a poll would take.
        await().atMost(PROMPTLY).until(() -> EventingFixture.outbox(db).stream().allMatch(OutboxRow::published));
        List<OutboxRow> outbox = EventingFixture.outbox(db);
        assertThat(outbox).hasSize(rows).allMatch(OutboxRow::published);
        assertThat(EventingFixture.publishedByKey(EventingFixture.readTopic(bootstrap, topic)))
                .isEqualTo(EventingFixture.byKey(outbox));
    }

    /**
     * Commits that keep coming while the relay passes, so that passes run back to back, each woken by a commit during
     * the one before: every row goes out once (a pass that read before the previous pass's mark would send its rows a
     * second time), and by the time the relay idles every row is marked and counted.
     */
    @Test
    void rowsCommittedDuringPassesGoOutOnceAndAreAllMarkedWhenTheRelayIdles() {
        String topic = EventingFixture.freshTopic(bootstrap, "burst");
        relay = leadingRelay();

        int rows = 300;
        for (int i = 0; i < rows; i++) {
            EventingFixture.append(db, topic, EventingFixture.event(i % 7));
        }
        await().atMost(PROMPTLY.multipliedBy(3))
                .until(() -> relay.idle() && EventingFixture.outbox(db).stream().allMatch(OutboxRow::published));

        List<OutboxRow> outbox = EventingFixture.outbox(db);
        assertThat(outbox).hasSize(rows);
        List<Published> onTopic = EventingFixture.readTopic(bootstrap, topic);
        assertThat(onTopic).as("every row once on the topic").hasSize(rows);
        assertThat(EventingFixture.publishedByKey(onTopic)).isEqualTo(EventingFixture.byKey(outbox));
        assertThat(EventingFixture.published(relay)).isEqualTo(rows);
    }

    @Test
    void aRolledBackInsertPublishesNothing() {
        String topic = EventingFixture.freshTopic(bootstrap, "rollback");
        relay = leadingRelay();

        EventingFixture.appendAndRollBack(db, topic, EventingFixture.event(5));
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> EventingFixture.published(relay) == 0);
        assertThat(EventingFixture.outbox(db)).isEmpty();

        ProcessDeleted committed = EventingFixture.event(5);
        EventingFixture.append(db, topic, committed);
        await().atMost(PROMPTLY).until(() -> EventingFixture.published(relay) == 1);

        assertThat(EventingFixture.outbox(db)).extracting(OutboxRow::eventId).containsExactly(Events.eventId(committed));
        assertThat(EventingFixture.readTopic(bootstrap, topic)).extracting(Published::eventId)
                .containsExactly(Events.eventId(committed));
        assertThat(EventingFixture.published(relay)).isEqualTo(1);
    }

    /** A running relay that has taken the relay lock (and so listens); from then on only commits start its passes. */
    private OutboxRelay leadingRelay() {
        OutboxRelay started = EventingFixture.running(db, bootstrap, NEVER);
        await().atMost(Duration.ofSeconds(30)).until(() -> started.leaderPid() != 0);
        return started;
    }
}
