package io.batchyard.eventing;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import io.batchyard.eventing.OutboxRepository.Pending;
import io.batchyard.schemas.EventCatalog;
import io.batchyard.schemas.EventCodec;
import io.batchyard.schemas.RecordHeaders;
import java.nio.charset.StandardCharsets;
import io.batchyard.schemas.kafka.EventSerializer;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.smallrye.common.annotation.Identifier;
import org.apache.avro.specific.SpecificRecord;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.pgclient.PgConnection;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Publishes committed outbox rows to Kafka in outbox order, then marks them published. At-least-once: a crash between
 * the broker's ack and the mark re-sends the rows, which consumers drop through their ledger.
 *
 * <p>One relay per database at a time, so that several replicas of a service never reorder the events of one key: the
 * leader holds a session-level advisory lock on a connection it keeps (taken from the pool) for as long as it leads.
 * PostgreSQL releases the lock when that connection ends, and the other relays try to take it every poll interval, so
 * a standby replica takes over when the leader dies; a leader that stops gives the lock back first.
 *
 * <p>Woken on commit: the leader's connection listens on the channel that the outbox trigger notifies, and PostgreSQL
 * delivers a notification only when the inserting transaction commits, that is when its rows become visible. A
 * notification during a pass causes exactly one more pass. The poll interval ({@code batchyard.outbox.poll-interval})
 * is only the fallback for a notification that was missed (a connection lost and taken again), so a miss delays rows
 * but never loses them, and it is how often a standby tries to take over.
 *
 * <p>No transaction is open across a broker round trip: a pass reads the next rows with one statement, sends them
 * and waits for the acks. The acknowledged rows are marked by the next pass's read, in the same statement, when a
 * commit wakes the relay within {@code batchyard.outbox.mark-delay} (50 ms); otherwise by a statement of their own
 * when that delay ends. Under load a pass so costs one statement instead of two; a relay that dies in the delay
 * leaves its last rows unmarked, to be sent again like rows whose mark failed.
 *
 * <p>Rows keep the event as Avro single-object bytes, which name their writer schema; the relay writes each in the
 * schema registry's wire format ({@link EventSerializer}), so a row written before an upgrade is published in
 * today's form. A registry that cannot be reached fails the row like a broker that cannot: it and the rows behind
 * it wait for the next pass.
 *
 * <p>Each record is published in a span of its own (kind PRODUCER, {@code <topic> publish}) whose parent is the
 * traceparent the row stored ({@link Outbox}); the record's {@code traceparent} header carries that span, so its
 * consumers continue the trace from the publication. The span ends when the broker acknowledges the record, in error
 * when it refuses it or the send fails.
 *
 * <p>Published rows are counted ({@code batchyard.outbox.published}); {@link OutboxReadiness} asks {@link #alive} whether
 * the loop still turns: it is waiting for a wake-up, or its last pass ended recently.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final int LINGER_MS = 2;
    private static final long FIRST_BACKOFF_MS = 50;
    private static final long MAX_BACKOFF_MS = 5_000;
    /** Rows this relay published to the broker. */
    public static final String PUBLISHED = "batchyard.outbox.published";

    private final Pool pool;
    private final OutboxRepository repository;
    private final Map<String, Object> broker;
    private final String schemaRegistryUrl;
    private final boolean enabled;
    private final Duration pollInterval;
    private final int batchSize;
    private final Duration sendTimeout;
    private final Duration linger;
    private final Duration markDelay;
    /**
     * Rows the broker acknowledged whose mark waits for the next pass's read, which makes it (see
     * {@link OutboxRepository#unpublished}); touched only by the thread that runs passes.
     */
    private final List<Long> acknowledged = new ArrayList<>();

    private final Counter published;
    private final Tracer tracer;
    /** The connection that holds the relay lock and listens; null while this relay does not lead. */
    private final AtomicReference<SqlConnection> leader = new AtomicReference<>();
    private final Object wakeups = new Object();
    private boolean woken;

    public OutboxRelay(Pool pool, OutboxRepository repository, MeterRegistry meters, Tracer tracer,
                       @Identifier(BrokerSettings.DEFAULT_BROKER) Map<String, Object> broker,
                       @ConfigProperty(name = "batchyard.schema-registry.url") String schemaRegistryUrl,
                       @ConfigProperty(name = "batchyard.outbox.enabled", defaultValue = "true") boolean enabled,
                       @ConfigProperty(name = "batchyard.outbox.poll-interval", defaultValue = "PT1S") Duration pollInterval,
                       @ConfigProperty(name = "batchyard.outbox.batch-size", defaultValue = "500") int batchSize,
                       @ConfigProperty(name = "batchyard.outbox.send-timeout", defaultValue = "PT30S") Duration sendTimeout,
                       @ConfigProperty(name = "batchyard.outbox.linger", defaultValue = "PT0.005S") Duration linger,
                       @ConfigProperty(name = "batchyard.outbox.mark-delay", defaultValue = "PT0.05S") Duration markDelay) {
        this.pool = pool;
        this.repository = repository;
        this.broker = broker;
        this.schemaRegistryUrl = schemaRegistryUrl;
        this.enabled = enabled;
        this.pollInterval = pollInterval;
        this.batchSize = batchSize;
        this.sendTimeout = sendTimeout;
        this.linger = linger;
        this.markDelay = markDelay;
        this.tracer = tracer;
        this.published = Counter.builder(PUBLISHED).description("Outbox rows published to the broker")
                .register(meters);
    }
    /** Package-visible so that tests can drive {@link #relayOnce()} with a producer of their own. */
    volatile Producer<String, byte[]> producer;
    private volatile EventSerializer serializer;
    private volatile Thread worker;
    private volatile boolean running;
    /** {@link System#nanoTime()} when the loop last started or ended a pass (or a failed one). */
    private volatile long lastTurn;
    /** True while the loop waits for a commit's notification or the poll interval: idle, not stuck. */
    private volatile boolean idle;

    void start(@Observes StartupEvent ignored) {
        if (!enabled) {
            LOG.info("outbox relay disabled (batchyard.outbox.enabled=false)");
            return;
        }
        startRelaying();
    }

    void stop(@Observes ShutdownEvent ignored) {
        close();
    }

    /** Starts the relay's thread (with the producer a test set, if any); package-visible for tests. */
    void startRelaying() {
        if (producer == null) {
            producer = new KafkaProducer<>(producerConfig(), new StringSerializer(), new ByteArraySerializer());
        }
        running = true;
        lastTurn = System.nanoTime();
        Thread t = new Thread(this::loop, "outbox-relay");
        t.setDaemon(true);
        worker = t;
        t.start();
    }

    /** Stops the thread, gives the lead back (a standby takes it at its next try) and closes the producer. */
    void close() {
        running = false;
        Thread t = worker;
        if (t != null) {
            t.interrupt();
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            if (t == null || !t.isAlive()) {
                markAcknowledged();
            }
        } catch (RuntimeException e) {
            // Unmarked rows are sent again by the next leader; consumers drop the copies through their ledger.
            LOG.warnf("outbox relay could not mark its last acknowledged rows before stopping: %s", e.getMessage());
        }
        SqlConnection session = leader.getAndSet(null);
        if (session != null) {
            release(session);
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        if (serializer != null) {
            serializer.close();
        }
    }

    /** Whether this relay publishes at all ({@code batchyard.outbox.enabled}). */
    public boolean enabled() {
        return enabled;
    }

    /**
     * The loop still turns: it waits for a wake-up (on LISTEN, or as a standby for its next try at the lead), or it
     * started or ended a pass less than {@code stall} ago. A pass that hangs longer (a broker call past every timeout, a
     * dead thread) is not alive.
     */
    public boolean alive(Duration stall) {
        return running && worker != null && worker.isAlive() && (idle || sinceLastTurn().compareTo(stall) < 0);
    }

    /** Whether the loop is waiting for a wake-up right now. */
    public boolean idle() {
        return idle;
    }

    /** How long ago the loop last started or ended a pass. */
    public Duration sinceLastTurn() {
        return Duration.ofNanos(System.nanoTime() - lastTurn);
    }

    /** The PostgreSQL backend pid of the connection that holds the relay lock, or 0 while this relay does not lead. */
    int leaderPid() {
        SqlConnection session = leader.get();
        return session == null ? 0 : PgConnection.cast(session.getDelegate()).processId();
    }

    private void loop() {
        long backoffMs = FIRST_BACKOFF_MS;
        while (running) {
            try {
                lastTurn = System.nanoTime();
                int relayed = relayOnce(true);
                lastTurn = System.nanoTime();
                backoffMs = FIRST_BACKOFF_MS;
                if (relayed < batchSize) {
                    // Under load the next commit comes soon, and its pass's read marks this pass's rows; when none
                    // comes within the mark delay, they are marked alone, so an idle outbox shows no stale backlog.
                    boolean notified = !acknowledged.isEmpty() && awaitWakeup(markDelay);
                    if (!notified) {
                        markAcknowledged();
                        awaitWakeup(pollInterval);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                lastTurn = System.nanoTime();
                if (!running) {
                    return;
                }
                LOG.warnf("outbox relay failed, retrying in %d ms: %s", backoffMs, e.getMessage());
                try {
                    Thread.sleep(backoffMs);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
                backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
            }
        }
    }

    /** Called on the event loop for every notification and when the lead is lost; never blocks. */
    private void wake() {
        synchronized (wakeups) {
            woken = true;
            wakeups.notifyAll();
        }
    }

    /**
     * Waits for a notification or the poll interval, whichever comes first. The flag is cleared here, before the next
     * pass reads, so that a commit during that pass leaves it set and causes exactly one more pass.
     */
    private boolean awaitWakeup(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        idle = true;
        try {
            boolean notified;
            synchronized (wakeups) {
                long left = wait.toNanos();
                while (!woken && left > 0) {
                    TimeUnit.NANOSECONDS.timedWait(wakeups, left);
                    left = deadline - System.nanoTime();
                }
                notified = woken;
            }
            // A commit rarely comes alone under load: lingering a few milliseconds after the first notification lets
            // the commits right behind it join the same pass (one read, one mark) instead of a pass each. Bounded, so
            // an event waits at most this long more; the flag is cleared after it, so commits during it cost no pass.
            if (notified && !linger.isZero()) {
                TimeUnit.NANOSECONDS.sleep(linger.toNanos());
            }
            synchronized (wakeups) {
                woken = false;
            }
            return notified;
        } finally {
            idle = false;
        }
    }

    /** Marks the acknowledged rows that wait for a pass, with a statement of their own; they stay listed on failure. */
    private void markAcknowledged() {
        SqlConnection session = leader.get();
        if (session == null || acknowledged.isEmpty()) {
            return;
        }
        repository.markPublished(session, List.copyOf(acknowledged)).await().atMost(sendTimeout);
        acknowledged.clear();
    }

    /**
     * Relays one batch; returns how many rows it published (0 while another relay leads). Package-visible for tests
     * that drive it directly.
     *
     * <p>Runs on the relay's own thread and waits for each step: {@code send} may block on topic metadata, which must
     * never happen on an event-loop thread.
     */
    int relayOnce() {
        return relayOnce(false);
    }

    /** {@link #relayOnce()}; {@code deferMark}: leave the acknowledged rows for the next pass's read to mark. */
    private int relayOnce(boolean deferMark) {
        SqlConnection session = lead();
        if (session == null) {
            return 0;
        }
        try {
            return relay(session, deferMark);
        } catch (RuntimeException e) {
            // Only the database statements of a pass throw (a broker or registry failure marks the row instead). The
            // connection may be dead without its close handler having fired: a connection PostgreSQL terminated can
            // answer "Connection is not active now" forever. So the lead is given up and the connection returned
            // either way; the next pass takes the lock afresh on a working connection, or finds another relay leads.
            if (leader.compareAndSet(session, null)) {
                release(session);
            }
            throw e;
        }
    }

    /** The connection that holds the relay lock: kept from an earlier pass, or taken now; null if another relay leads. */
    private SqlConnection lead() {
        SqlConnection current = leader.get();
        if (current != null) {
            return current;
        }
        SqlConnection candidate = pool.getConnection().await().atMost(sendTimeout);
        try {
            if (!repository.tryRelayLock(candidate).await().atMost(sendTimeout)) {
                candidate.close().onFailure().recoverWithNull().await().atMost(sendTimeout);
                return null;
            }
            PgConnection pg = PgConnection.cast(candidate.getDelegate());
            pg.notificationHandler(notification -> wake());
            pg.closeHandler(ignored -> {
                if (leader.compareAndSet(candidate, null)) {
                    LOG.warn("outbox relay lost its database connection and with it the relay lock");
                    wake();
                }
            });
            // Listening starts before this pass reads, so a row that commits after the read still wakes the relay.
            repository.listen(candidate).await().atMost(sendTimeout);
            leader.set(candidate);
            LOG.infof("outbox relay leads (PostgreSQL backend %d)", pg.processId());
            return candidate;
        } catch (RuntimeException e) {
            release(candidate);
            throw e;
        }
    }

    /**
     * Gives the lock back and returns the connection to the pool. The connection lives on in the pool, so it must not
     * keep the lock; the unlock is queued behind any statement still running on it (a lock attempt that timed out
     * here may still succeed), and the wait is bounded since a dead connection holds nothing anyway.
     */
    private void release(SqlConnection session) {
        CompletableFuture<Void> released = repository.resign(session).onFailure().recoverWithNull()
                .chain(session::close).onFailure().recoverWithNull()
                .subscribeAsCompletionStage();
        try {
            released.get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.warnf("outbox relay could not give the relay lock back cleanly: %s", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One pass on the leader's connection, without a transaction: read, send, wait for the acks, mark.
     *
     * <p>If the connection drops mid-pass, PostgreSQL releases the lock and a standby may take over while this pass's
     * records are still on their way; the mark then fails on the dead connection. The new leader starts at the first
     * unmarked row, so rows may reach the topic twice, which consumers drop through their ledger. A key's order holds
     * for the first copy of each event, which is the one consumers apply: every relay sends a key's rows in outbox
     * order, and sends a row only after each earlier row was acknowledged (marked) or sent by itself ahead of it. The
     * same was true of a transaction that died mid-pass under the former transaction-scoped lock.
     */
    private int relay(SqlConnection session, boolean deferMark) {
        List<Pending> rows = repository.unpublished(session, batchSize, List.copyOf(acknowledged))
                .await().atMost(sendTimeout);
        acknowledged.clear();
        if (rows.isEmpty()) {
            return 0;
        }
        List<Future<RecordMetadata>> sends = new ArrayList<>(rows.size());
        for (Pending row : rows) {
            Span span = Trace.startMessagingSpan(tracer, SpanKind.PRODUCER, row.topic(), "publish", row.traceparent(),
                    row.eventId().toString());
            Future<RecordMetadata> send;
            try {
                send = producer.send(toRecord(row, span.getSpanContext()),
                        (metadata, failure) -> Trace.end(span, failure));
            } catch (RuntimeException e) {
                // The registry could not be reached or refused the schema: nothing behind this row may go first.
                Trace.end(span, e);
                markFailed(session, row.position(), e);
                break;
            }
            sends.add(send);
            if (refused(send)) {
                // Refused before it left (no metadata, too large): sending the rows behind it would put them on
                // the topic ahead of it.
                break;
            }
        }
        producer.flush();
        List<Long> done = new ArrayList<>(sends.size());
        for (int i = 0; i < sends.size(); i++) {
            try {
                sends.get(i).get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
                done.add(rows.get(i).position());
            } catch (ExecutionException | TimeoutException e) {
                // Keep order: nothing after the first failure is marked, the next pass re-sends it.
                markFailed(session, rows.get(i).position(), e);
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (deferMark) {
            acknowledged.addAll(done);
        } else {
            repository.markPublished(session, done).await().atMost(sendTimeout);
        }
        published.increment(done.size());
        return done.size();
    }

    /**
     * The row as a Kafka record: the event in the registry's wire format, with its id and the span it is published in
     * as headers.
     */
    private ProducerRecord<String, byte[]> toRecord(Pending row, SpanContext span) {
        Class<? extends SpecificRecord> type = EventCatalog.byName(row.eventType())
                .orElseThrow(() -> new IllegalStateException("outbox row of unknown event type " + row.eventType()));
        if (serializer == null) {
            serializer = EventSerializer.forRegistry(schemaRegistryUrl);
        }
        Headers headers = new org.apache.kafka.common.header.internals.RecordHeaders();
        headers.add(new RecordHeader("event-id", uuidBytes(row.eventId())));
        headers.add(new RecordHeader(RecordHeaders.TRACEPARENT,
                Trace.traceparent(span).getBytes(StandardCharsets.UTF_8)));
        byte[] value = serializer.serialize(row.topic(), headers, EventCodec.decode(row.payload(), type));
        return new ProducerRecord<>(row.topic(), null, row.key(), value, headers);
    }

    /** A send the producer failed at once, before the record was queued for the broker. */
    private static boolean refused(Future<RecordMetadata> send) {
        if (!send.isDone()) {
            return false;
        }
        try {
            send.get();
            return false;
        } catch (ExecutionException e) {
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private void markFailed(SqlConnection session, long position, Exception e) {
        Throwable cause = e instanceof RuntimeException || e.getCause() == null ? e : e.getCause();
        repository.markFailed(session, position, cause.getClass().getSimpleName() + ": " + cause.getMessage())
                .await().atMost(sendTimeout);
        LOG.warnf("outbox row %d not published yet: %s", position, cause.getMessage());
    }

    /**
     * The channels' broker settings (bootstrap, security), then the relay's own, which win: its delivery guarantees
     * and timeouts are what the relay's ordering and outage handling rely on.
     */
    Properties producerConfig() {
        Properties props = BrokerSettings.forClient(broker, ProducerConfig.configNames());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.LINGER_MS_CONFIG, String.valueOf(LINGER_MS));
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(sendTimeout.toMillis()));
        // The client rejects a delivery timeout shorter than linger + request timeout, so a send timeout under 15 s
        // must shorten the request timeout with it.
        long requestTimeoutMs = Math.max(1, Math.min(sendTimeout.toMillis() - LINGER_MS, 15_000));
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(requestTimeoutMs));
        // send() itself waits for topic metadata; without this bound a pass with the broker down would block the
        // default minute per row while it holds the relay lock.
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(sendTimeout.toMillis()));
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "outbox-relay");
        return props;
    }

    private static byte[] uuidBytes(UUID id) {
        return ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits()).array();
    }
}
