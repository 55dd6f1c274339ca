package io.batchyard.eventing;

import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.schemas.Events;
import io.batchyard.teststack.Infrastructure;
import io.batchyard.teststack.TopicContents;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.postgres.PostgresPlugin;

/**
 * Setup shared by the eventing integration tests: a fresh database with the eventing migration, relays and ledgers
 * built without a container, and a reader that returns what really reached a topic. Only this class knows how the
 * module is wired (Jdbi today); the tests themselves look at {@code outbox_event}, {@code processed_event} and the
 * broker.
 */
final class EventingFixture {

    private static final String MIGRATION = "/db/eventing/V0_1__eventing_outbox_and_ledger.sql";

    private static final java.util.concurrent.atomic.AtomicInteger DATABASES = new java.util.concurrent.atomic.AtomicInteger();

    private EventingFixture() {
    }

    /** One outbox row as the tests observe it. */
    record OutboxRow(long position, UUID eventId, String key, boolean published, int attempts, String lastError) {
    }

    /** One record read back from the broker. */
    record Published(String key, UUID eventId) {
    }

    /** A new database on the shared test PostgreSQL with the outbox and the ledger tables. */
    static Jdbi freshDatabase(String name) {
        // The test stack hands out one database per name: number them so that every call gets a fresh one.
        Infrastructure.Database db = Infrastructure.get().database(name + "_" + DATABASES.incrementAndGet());
        Jdbi jdbi = Jdbi.create(db.jdbcUrl(), db.user(), db.password()).installPlugin(new PostgresPlugin());
        try (InputStream in = EventingFixture.class.getResourceAsStream(MIGRATION)) {
            String sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            jdbi.useHandle(h -> h.createScript(sql).execute());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return jdbi;
    }

    /** A relay over {@code jdbi} with its own producer configuration; the test drives {@code relayOnce()}. */
    static OutboxRelay relay(Jdbi jdbi, String bootstrap, Duration sendTimeout) {
        OutboxRelay relay = configured(jdbi, bootstrap, sendTimeout);
        relay.producer = new KafkaProducer<>(relay.producerConfig(), new StringSerializer(), new ByteArraySerializer());
        return relay;
    }

    /** A relay whose producer the test supplies (built from {@link OutboxRelay#producerConfig()}). */
    static OutboxRelay relay(Jdbi jdbi, String bootstrap, Duration sendTimeout,
                             java.util.function.Function<Properties, Producer<String, byte[]>> producer) {
        OutboxRelay relay = configured(jdbi, bootstrap, sendTimeout);
        relay.producer = producer.apply(relay.producerConfig());
        return relay;
    }

    private static OutboxRelay configured(Jdbi jdbi, String bootstrap, Duration sendTimeout) {
        OutboxRelay relay = new OutboxRelay();
        relay.jdbi = jdbi;
        relay.bootstrapServers = bootstrap;
        relay.enabled = true;
        relay.pollInterval = Duration.ofMillis(50);
        relay.batchSize = 500;
        relay.sendTimeout = sendTimeout;
        return relay;
    }

    static void close(OutboxRelay relay) {
        if (relay != null && relay.producer != null) {
            relay.producer.close(Duration.ofSeconds(5));
        }
    }

    static ProcessedEventLedger ledger(Jdbi jdbi) {
        ProcessedEventLedger ledger = new ProcessedEventLedger();
        ledger.jdbi = jdbi;
        return ledger;
    }

    /** A small catalogued event (its key is the parent process id). */
    static ProcessDeleted event(long parentProcessId) {
        return event(parentProcessId, 1);
    }

    /** An event carrying {@code ids} process ids; large counts make it exceed the producer's request size. */
    static ProcessDeleted event(long parentProcessId, int ids) {
        return ProcessDeleted.newBuilder()
                .setHeader(Events.header("eventing-test", null, null))
                .setParentProcessId(parentProcessId)
                .setDeletedProcessIds(LongStream.range(0, ids).map(i -> Long.MAX_VALUE - i).boxed().toList())
                .build();
    }

    /** Appends one event in a transaction of its own, as a business transaction would. */
    static void append(Jdbi jdbi, String topic, ProcessDeleted event) {
        jdbi.useTransaction(tx -> new Outbox().append(tx, topic, event.getParentProcessId(), event));
    }

    static List<OutboxRow> outbox(Jdbi jdbi) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT position, event_id, record_key, published_at IS NOT NULL, attempts, last_error
                        FROM outbox_event ORDER BY position""")
                .map((rs, ctx) -> new OutboxRow(rs.getLong(1), rs.getObject(2, UUID.class), rs.getString(3),
                        rs.getBoolean(4), rs.getInt(5), rs.getString(6)))
                .list());
    }

    /** Event ids per key in outbox order: the order the broker must show them in. */
    static Map<String, List<UUID>> byKey(List<OutboxRow> rows) {
        Map<String, List<UUID>> byKey = new LinkedHashMap<>();
        rows.forEach(r -> byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.eventId()));
        return byKey;
    }

    /** Event ids per key in the order the topic holds them (one key lives in one partition). */
    static Map<String, List<UUID>> publishedByKey(List<Published> records) {
        Map<String, List<UUID>> byKey = new LinkedHashMap<>();
        records.forEach(r -> byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.eventId()));
        return byKey;
    }

    /** Every record of {@code topic} up to its current end, partition by partition in offset order. */
    static List<Published> readTopic(String bootstrap, String topic) {
        return TopicContents.read(bootstrap, topic::equals, Duration.ofSeconds(30), Duration.ofSeconds(60)).stream()
                .map(r -> new Published(r.key() == null ? null : new String(r.key(), StandardCharsets.UTF_8), eventId(r)))
                .toList();
    }

    private static UUID eventId(ConsumerRecord<byte[], byte[]> r) {
        ByteBuffer id = ByteBuffer.wrap(r.headers().lastHeader("event-id").value());
        return new UUID(id.getLong(), id.getLong());
    }

    /** A topic name no other test uses, created with three partitions. */
    static String freshTopic(String bootstrap, String name) {
        String topic = "eventing-test." + name + "." + UUID.randomUUID();
        Infrastructure.createTopics(bootstrap, List.of(topic));
        return topic;
    }
}
