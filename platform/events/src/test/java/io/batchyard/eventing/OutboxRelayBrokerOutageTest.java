package io.batchyard.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.eventing.EventingFixture.OutboxRow;
import io.batchyard.eventing.EventingFixture.Published;
import io.batchyard.teststack.RestartableKafka;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import io.vertx.mutiny.sqlclient.Pool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The outbox relay while its broker is down: nothing is lost or reordered, failed passes are recorded on the row, and
 * everything drains once the broker is back. Runs its own broker, since the shared one cannot be stopped.
 */
class OutboxRelayBrokerOutageTest {

    private static final String TOPIC = "eventing-test.outage";

    private static RestartableKafka kafka;
    private static Pool db;
    private static OutboxRelay relay;

    @BeforeAll
    static void start() {
        kafka = RestartableKafka.start(List.of(TOPIC));
        db = EventingFixture.freshDatabase("eventing_outage");
        relay = EventingFixture.relay(db, kafka.bootstrapServers(), Duration.ofSeconds(5));
    }

    @AfterAll
    static void stop() {
        EventingFixture.close(relay);
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void rowsWrittenWhileTheBrokerIsDownWaitInOrderAndDrainWhenItReturns() {
        // One row while the broker is up, so the relay's producer knows the topic before the outage.
        EventingFixture.append(db, TOPIC, EventingFixture.event(100));
        assertThat(relay.relayOnce()).isEqualTo(1);

        kafka.stop();
        for (int i = 0; i < 12; i++) {
            EventingFixture.append(db, TOPIC, EventingFixture.event(i % 3));
        }
        assertThat(relay.relayOnce()).isZero();
        assertThat(relay.relayOnce()).isZero();

        List<OutboxRow> waiting = EventingFixture.outbox(db);
        assertThat(waiting).hasSize(13);
        assertThat(waiting.subList(1, 13)).noneMatch(OutboxRow::published);
        OutboxRow head = waiting.get(1);
        assertThat(head.attempts()).isEqualTo(2);
        assertThat(head.lastError()).isNotBlank();

        kafka.restart();
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> {
                    relay.relayOnce();
                    return EventingFixture.outbox(db).stream().allMatch(OutboxRow::published);
                });

        List<OutboxRow> outbox = EventingFixture.outbox(db);
        List<Published> published = EventingFixture.readTopic(kafka.bootstrapServers(), TOPIC);
        var onTopic = EventingFixture.publishedByKey(published);
        var expected = EventingFixture.byKey(outbox);
        System.out.printf("[eventing] after the outage: %d rows, %d records on the topic, head row attempts %d%n",
                outbox.size(), published.size(), outbox.get(1).attempts());
        assertThat(published.stream().map(Published::eventId).distinct())
                .containsExactlyInAnyOrderElementsOf(outbox.stream().map(OutboxRow::eventId).toList());
        expected.forEach((key, ids) -> assertThat(firstDeliveries(onTopic.get(key))).as("key %s", key)
                .containsExactlyElementsOf(ids));
    }

    /** The order in which a consumer with a ledger applies the events: each at its first delivery. */
    private static List<UUID> firstDeliveries(List<UUID> delivered) {
        return delivered.stream().distinct().toList();
    }
}
