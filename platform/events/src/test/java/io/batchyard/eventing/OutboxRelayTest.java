package io.batchyard.eventing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.eventing.EventingFixture.OutboxRow;
import io.batchyard.eventing.EventingFixture.Published;
import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.schemas.EventCodec;
import io.batchyard.schemas.Events;
import io.batchyard.teststack.Infrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import io.vertx.mutiny.sqlclient.Pool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The outbox relay against a real PostgreSQL and Kafka: one publisher per database, and a failing row holds back the rows behind it. */
class OutboxRelayTest {

    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(5);

    private final String bootstrap = Infrastructure.get().kafkaBootstrapServers();
    private final List<OutboxRelay> relays = new ArrayList<>();
    private Pool db;

    @BeforeEach
    void database() {
        db = EventingFixture.freshDatabase("eventing_relay");
    }

    @AfterEach
    void closeRelays() {
        relays.forEach(EventingFixture::close);
    }

    @Test
    void whileOneRelayHoldsTheLockTheOtherPublishesNothing() throws Exception {
        String topic = EventingFixture.freshTopic(bootstrap, "lock");
        CountDownLatch sending = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // Hold the relay inside its pass (and so inside its lock) until the test lets go.
        OutboxRelay holder = track(EventingFixture.relay(db, bootstrap, SEND_TIMEOUT,
                holding(() -> true, sending, release)));
        OutboxRelay other = track(EventingFixture.relay(db, bootstrap, SEND_TIMEOUT));
        for (int i = 0; i < 3; i++) {
            EventingFixture.append(db, topic, EventingFixture.event(7));
        }

        CompletableFuture<Integer> held = CompletableFuture.supplyAsync(holder::relayOnce);
        assertThat(sending.await(30, TimeUnit.SECONDS)).as("the first relay reached the broker").isTrue();

        assertThat(other.relayOnce()).as("the second relay while the first holds the lock").isZero();
        assertThat(other.relayOnce()).isZero();
        assertThat(EventingFixture.outbox(db)).noneMatch(OutboxRow::published);

        release.countDown();
        assertThat(held.get(60, TimeUnit.SECONDS)).isEqualTo(3);
        assertThat(EventingFixture.outbox(db)).allMatch(OutboxRow::published);
        assertThat(EventingFixture.readTopic(bootstrap, topic)).hasSize(3);
    }

    @Test
    void twoRelaysOnOneDatabasePublishEveryRowOnceInOrder() throws Exception {
        String topic = EventingFixture.freshTopic(bootstrap, "pair");
        OutboxRelay first = track(EventingFixture.relay(db, bootstrap, SEND_TIMEOUT));
        OutboxRelay second = track(EventingFixture.relay(db, bootstrap, SEND_TIMEOUT));
        int rows = 300;
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Thread> loops = List.of(relayLoop(first, writing), relayLoop(second, writing));
        loops.forEach(Thread::start);
        try {
            for (int i = 0; i < rows; i++) {
                EventingFixture.append(db, topic, EventingFixture.event(i % 5));
            }
        } finally {
            writing.set(false);
            for (Thread loop : loops) {
                loop.join(120_000);
            }
        }
        loops.forEach(loop -> assertThat(loop.isAlive()).isFalse());

        List<OutboxRow> outbox = EventingFixture.outbox(db);
        assertThat(outbox).hasSize(rows).allMatch(OutboxRow::published);
        List<Published> published = EventingFixture.readTopic(bootstrap, topic);
        assertThat(published).as("every row exactly once").hasSize(rows);
        assertThat(EventingFixture.publishedByKey(published)).isEqualTo(EventingFixture.byKey(outbox));
        assertThat(EventingFixture.published(first) + EventingFixture.published(second)).isEqualTo(rows);
        System.out.printf("[eventing] two relays published %d + %d rows%n", EventingFixture.published(first),
                EventingFixture.published(second));
    }

    @Test
    void whenTheLeadersConnectionDiesMidPassTheStandbyTakesOverAndEveryRowGoesOutInOrder() throws Exception {
        String topic = EventingFixture.freshTopic(bootstrap, "takeover");
        AtomicBoolean hold = new AtomicBoolean();
        CountDownLatch sending = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // While held, the pass has read its rows and not marked them: the test ends its connection there.
        OutboxRelay leader = track(EventingFixture.relay(db, bootstrap, SEND_TIMEOUT,
                holding(hold::get, sending, release)));
        for (int i = 0; i < 10; i++) {
            EventingFixture.append(db, topic, EventingFixture.event(i % 3));
        }
        assertThat(leader.relayOnce()).isEqualTo(10);

        // The standby runs its own loop and tries to take the lock every 200 ms; the leader keeps it between passes.
        OutboxRelay standby = track(EventingFixture.running(db, bootstrap, Duration.ofMillis(200)));
        for (int i = 0; i < 10; i++) {
            EventingFixture.append(db, topic, EventingFixture.event(i % 3));
        }
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5))
                .until(() -> EventingFixture.published(standby) == 0 && standby.leaderPid() == 0);
        assertThat(unpublished()).isEqualTo(10);

        hold.set(true);
        CompletableFuture<Integer> pass = CompletableFuture.supplyAsync(leader::relayOnce);
        assertThat(sending.await(30, TimeUnit.SECONDS)).as("the leader's pass reached the broker").isTrue();
        int leaderPid = leader.leaderPid();
        EventingFixture.terminateBackend(db, leaderPid);

        await().atMost(Duration.ofSeconds(30)).until(() -> unpublished() == 0);
        assertThat(EventingFixture.published(standby)).as("the standby published the pass the leader lost").isEqualTo(10);
        assertThat(standby.leaderPid()).isNotZero().isNotEqualTo(leaderPid);

        // The lost pass still sends its records (duplicates) but cannot mark them: its connection is gone.
        release.countDown();
        assertThat(pass).failsWithin(Duration.ofSeconds(60));
        hold.set(false);
        assertThat(leader.leaderPid()).isZero();
        assertThat(leader.relayOnce()).as("the former leader while the standby leads").isZero();
        for (int i = 0; i < 5; i++) {
            EventingFixture.append(db, topic, EventingFixture.event(i % 3));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> unpublished() == 0);
        assertThat(EventingFixture.published(standby)).isEqualTo(15);
        assertThat(EventingFixture.published(leader)).isEqualTo(10);

        List<OutboxRow> outbox = EventingFixture.outbox(db);
        assertThat(outbox).hasSize(25).allMatch(OutboxRow::published);
        List<Published> published = EventingFixture.readTopic(bootstrap, topic);
        assertThat(published.stream().map(Published::eventId).distinct())
                .containsExactlyInAnyOrderElementsOf(outbox.stream().map(OutboxRow::eventId).toList());
        // Consumers apply each event at its first delivery: in outbox order for every key.
        Map<String, List<UUID>> firstDeliveries = new LinkedHashMap<>();
        EventingFixture.publishedByKey(published)
                .forEach((key, ids) -> firstDeliveries.put(key, ids.stream().distinct().toList()));
        assertThat(firstDeliveries).isEqualTo(EventingFixture.byKey(outbox));
        System.out.printf("[eventing] after the takeover: %d rows, %d records on the topic%n", outbox.size(),
                published.size());
    }

    @Test
    void aRowThatCannotBePublishedHoldsBackTheRowsBehindItUntilItIsFixed() {
        String topic = EventingFixture.freshTopic(bootstrap, "blocked");
        OutboxRelay relay = track(EventingFixture.relay(db, bootstrap, SEND_TIMEOUT));
        EventingFixture.append(db, topic, EventingFixture.event(9));
        // Over a MiB once encoded: larger than the producer accepts in one request, so every send of it fails.
        ProcessDeleted tooLarge = EventingFixture.event(9, 150_000);
        EventingFixture.append(db, topic, tooLarge);
        EventingFixture.append(db, topic, EventingFixture.event(9));
        EventingFixture.append(db, topic, EventingFixture.event(9));
        EventingFixture.append(db, topic, EventingFixture.event(4));
        UUID blockedId = Events.eventId(tooLarge);

        assertThat(relay.relayOnce()).isEqualTo(1);
        assertThat(relay.relayOnce()).isZero();
        assertThat(relay.relayOnce()).isZero();

        List<OutboxRow> stuck = EventingFixture.outbox(db);
        assertThat(stuck.get(0).published()).isTrue();
        OutboxRow blocked = stuck.get(1);
        assertThat(blocked.eventId()).isEqualTo(blockedId);
        assertThat(blocked.published()).isFalse();
        assertThat(blocked.attempts()).isEqualTo(3);
        assertThat(blocked.lastError()).contains("RecordTooLargeException");
        assertThat(stuck.subList(2, stuck.size())).as("the rows behind the failing one")
                .noneMatch(OutboxRow::published).allMatch(r -> r.attempts() == 0);

        // The cause goes away (here: the row is rewritten small); the row and all behind it go out, in order.
        ProcessDeleted fixed = ProcessDeleted.newBuilder(tooLarge).setDeletedProcessIds(List.of(1L)).build();
        EventingFixture.update(db, "UPDATE outbox_event SET payload = $1 WHERE event_id = $2",
                io.vertx.core.buffer.Buffer.buffer(EventCodec.encode(fixed)), blockedId);
        assertThat(relay.relayOnce()).isEqualTo(4);

        List<OutboxRow> outbox = EventingFixture.outbox(db);
        assertThat(outbox).allMatch(OutboxRow::published);
        assertThat(outbox.get(1).attempts()).isEqualTo(4);
        // Nothing behind the failing row reached the topic before it, nor twice: every key reads in outbox order.
        assertThat(EventingFixture.publishedByKey(EventingFixture.readTopic(bootstrap, topic)))
                .isEqualTo(EventingFixture.byKey(outbox));
    }

    /** A producer whose sends, while {@code hold} says so, count {@code sending} down and wait for {@code release}. */
    private static Function<Properties, Producer<String, byte[]>> holding(BooleanSupplier hold, CountDownLatch sending,
                                                                         CountDownLatch release) {
        return config -> new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer()) {
            @Override
            public Future<RecordMetadata> send(ProducerRecord<String, byte[]> record, Callback callback) {
                if (hold.getAsBoolean()) {
                    sending.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return super.send(record, callback);
            }
        };
    }

    private OutboxRelay track(OutboxRelay relay) {
        relays.add(relay);
        return relay;
    }

    /** Relays until the writer is done and nothing is left, the way the relay's own loop would. */
    private Thread relayLoop(OutboxRelay relay, AtomicBoolean writing) {
        return new Thread(() -> {
            while (writing.get() || unpublished() > 0) {
                if (relay.relayOnce() == 0) {
                    sleep(5);
                }
            }
        }, "relay-loop");
    }

    private long unpublished() {
        return EventingFixture.count(db, "SELECT count(*) FROM outbox_event WHERE published_at IS NULL");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
