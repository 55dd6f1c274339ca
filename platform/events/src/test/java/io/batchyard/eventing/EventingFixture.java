package io.batchyard.eventing;

import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.schemas.Events;
import io.batchyard.teststack.Infrastructure;
import io.batchyard.teststack.TopicContents;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
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
import io.batchyard.schemas.EventCatalog;
import io.batchyard.schemas.EventCodec;
import io.vertx.mutiny.core.Vertx;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * Setup shared by the relay tests: a fresh database with the eventing migration on a reactive pool of its own, relays
 * built without a container, and a reader that returns what really reached a topic. Only this class knows how the
 * module is wired (the reactive PostgreSQL client); the tests themselves look at {@code outbox_event} and the broker.
 */
final class EventingFixture {

    /** The module's migrations, in order. */
    static final List<String> MIGRATIONS = List.of("/db/eventing/V0_1__eventing_outbox_and_ledger.sql",
            "/db/eventing/V0_6__outbox_notify.sql", "/db/eventing/V0_8__outbox_traceparent.sql",
            "/db/eventing/V0_9__retention_indexes.sql");
    /** Each relay's own meters, so that a test with two relays reads what each of them published. */
    private static final Map<OutboxRelay, MeterRegistry> METERS = java.util.Collections.synchronizedMap(
            new java.util.IdentityHashMap<>());

    private static final java.util.concurrent.atomic.AtomicInteger DATABASES = new java.util.concurrent.atomic.AtomicInteger();
    private static final Vertx VERTX = Vertx.vertx();
    private static final Duration DB_TIMEOUT = Duration.ofSeconds(30);
    /** The relays' tracer: real spans (records carry their ids), exported nowhere. */
    private static final Tracer TRACER = SdkTracerProvider.builder().build().get("eventing-test");

    private EventingFixture() {
    }

    /** One outbox row as the tests observe it. */
    record OutboxRow(long position, UUID eventId, String key, boolean published, int attempts, String lastError) {
    }

    /** One record read back from the broker. */
    record Published(String key, UUID eventId) {
    }

    /** A new database on the shared test PostgreSQL with the outbox and the ledger tables. */
    static Pool freshDatabase(String name) {
        // The test stack hands out one database per name: number them so that every call gets a fresh one.
        Infrastructure.Database db = Infrastructure.get().database(name + "_" + DATABASES.incrementAndGet());
        PgConnectOptions options = PgConnectOptions.fromUri(db.reactiveUrl()).setUser(db.user())
                .setPassword(db.password());
        Pool pool = Pool.newInstance(PgBuilder.pool().with(new PoolOptions().setMaxSize(8)).connectingTo(options)
                .using(VERTX.getDelegate()).build());
        MIGRATIONS.forEach(migration -> pool.query(resource(migration)).execute().await().atMost(DB_TIMEOUT));
        return pool;
    }

    static String resource(String path) {
        try (InputStream in = EventingFixture.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A relay over {@code pool} with its own producer configuration; the test drives {@code relayOnce()}. */
    static OutboxRelay relay(Pool pool, String bootstrap, Duration sendTimeout) {
        OutboxRelay relay = configured(pool, bootstrap, sendTimeout);
        relay.producer = new KafkaProducer<>(relay.producerConfig(), new StringSerializer(), new ByteArraySerializer());
        return relay;
    }

    /** A relay whose producer the test supplies (built from {@link OutboxRelay#producerConfig()}). */
    static OutboxRelay relay(Pool pool, String bootstrap, Duration sendTimeout,
                             java.util.function.Function<Properties, Producer<String, byte[]>> producer) {
        OutboxRelay relay = configured(pool, bootstrap, sendTimeout);
        relay.producer = producer.apply(relay.producerConfig());
        return relay;
    }

    /**
     * A relay whose own loop runs (woken by commits, polling every {@code pollInterval} as a fallback), the way the
     * service runs it.
     */
    /** The service's default: how long acknowledged rows may wait for the next pass's read to mark them. */
    static final Duration MARK_DELAY = Duration.ofMillis(50);

    static OutboxRelay running(Pool pool, String bootstrap, Duration pollInterval) {
        MeterRegistry meters = new SimpleMeterRegistry();
        OutboxRelay relay = new OutboxRelay(pool, new OutboxRepository(), meters, TRACER, broker(bootstrap),
                Infrastructure.get().schemaRegistryUrl(), true, pollInterval, 500,
                Duration.ofSeconds(5), Duration.ofMillis(5), MARK_DELAY);
        METERS.put(relay, meters);
        relay.startRelaying();
        return relay;
    }

    private static OutboxRelay configured(Pool pool, String bootstrap, Duration sendTimeout) {
        MeterRegistry meters = new SimpleMeterRegistry();
        OutboxRelay relay = new OutboxRelay(pool, new OutboxRepository(), meters, TRACER, broker(bootstrap),
                Infrastructure.get().schemaRegistryUrl(), true, Duration.ofMillis(50), 500, sendTimeout, Duration.ZERO,
                MARK_DELAY);
        METERS.put(relay, meters);
        return relay;
    }

    /** Broker settings as Quarkus merges them from {@code kafka.*}: here only where the broker is. */
    private static Map<String, Object> broker(String bootstrap) {
        return Map.of("bootstrap.servers", bootstrap);
    }

    /** Rows {@code relay} published, as its {@code batchyard.outbox.published} counter says. */
    static long published(OutboxRelay relay) {
        return (long) METERS.get(relay).get(OutboxRelay.PUBLISHED).counter().count();
    }

    /** Stops the relay's loop if it runs, gives its lock back and closes its producer. */
    static void close(OutboxRelay relay) {
        if (relay != null) {
            relay.close();
        }
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

    /**
     * Appends one event in a transaction of its own, as a business transaction would (the row {@link Outbox} writes,
     * column for column; that {@link Outbox} writes it in the caller's transaction is checked by the Quarkus tests).
     */
    static void append(Pool pool, String topic, ProcessDeleted event) {
        insert(pool, topic, event).await().atMost(DB_TIMEOUT);
    }

    /** Appends one event in a transaction that then rolls back, as a business transaction that fails would. */
    static void appendAndRollBack(Pool pool, String topic, ProcessDeleted event) {
        pool.withTransaction(tx -> insert(tx, topic, event)
                        .chain(() -> Uni.createFrom().failure(new IllegalStateException("the change failed"))))
                .onFailure(IllegalStateException.class).recoverWithNull()
                .await().atMost(DB_TIMEOUT);
    }

    private static Uni<RowSet<Row>> insert(SqlClient client, String topic, ProcessDeleted event) {
        return client.preparedQuery("""
                        INSERT INTO outbox_event (event_id, topic, record_key, event_type, payload)
                        VALUES ($1, $2, $3, $4, $5)""")
                .execute(Tuple.tuple(List.of(Events.eventId(event), topic, String.valueOf(event.getParentProcessId()),
                        EventCatalog.eventType(event.getClass()),
                        io.vertx.core.buffer.Buffer.buffer(EventCodec.encode(event)))));
    }

    /** Ends the PostgreSQL session with backend {@code pid}, as a crash, a failover or an administrator would. */
    static void terminateBackend(Pool pool, int pid) {
        boolean ended = pool.preparedQuery("SELECT pg_terminate_backend($1)").execute(Tuple.of(pid))
                .await().atMost(DB_TIMEOUT).iterator().next().getBoolean(0);
        if (!ended) {
            throw new IllegalStateException("no PostgreSQL backend " + pid);
        }
    }

    static List<OutboxRow> outbox(Pool pool) {
        List<OutboxRow> rows = new ArrayList<>();
        pool.query("""
                        SELECT position, event_id, record_key, published_at IS NOT NULL, attempts, last_error
                        FROM outbox_event ORDER BY position""")
                .execute().await().atMost(DB_TIMEOUT)
                .forEach(r -> rows.add(new OutboxRow(r.getLong(0), r.getUUID(1), r.getString(2), r.getBoolean(3),
                        r.getInteger(4), r.getString(5))));
        return rows;
    }

    /** Runs one statement with positional ({@code $1}) parameters; returns the rows it changed. */
    static int update(Pool pool, String sql, Object... params) {
        return pool.preparedQuery(sql).execute(Tuple.tuple(List.of(params))).await().atMost(DB_TIMEOUT).rowCount();
    }

    static long count(Pool pool, String sql) {
        return pool.query(sql).execute().await().atMost(DB_TIMEOUT).iterator().next().getLong(0);
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
