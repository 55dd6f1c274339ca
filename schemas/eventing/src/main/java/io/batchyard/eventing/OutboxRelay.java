package io.batchyard.eventing;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import io.batchyard.eventing.OutboxRepository.Pending;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Publishes committed outbox rows to Kafka in outbox order, then marks them published. At-least-once: a crash between
 * the broker's ack and the mark re-sends the rows, which consumers drop through their ledger.
 *
 * <p>One relay per database at a time (a transaction-scoped advisory lock), so that several replicas of a service never
 * reorder the events of one key.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final int LINGER_MS = 2;

    private final Pool pool;
    private final OutboxRepository repository;
    private final String bootstrapServers;
    private final boolean enabled;
    private final Duration pollInterval;
    private final int batchSize;
    private final Duration sendTimeout;

    private final AtomicLong published = new AtomicLong();

    public OutboxRelay(Pool pool, OutboxRepository repository,
                       @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers,
                       @ConfigProperty(name = "batchyard.outbox.enabled", defaultValue = "true") boolean enabled,
                       @ConfigProperty(name = "batchyard.outbox.poll-interval", defaultValue = "PT0.05S") Duration pollInterval,
                       @ConfigProperty(name = "batchyard.outbox.batch-size", defaultValue = "500") int batchSize,
                       @ConfigProperty(name = "batchyard.outbox.send-timeout", defaultValue = "PT30S") Duration sendTimeout) {
        this.pool = pool;
        this.repository = repository;
        this.bootstrapServers = bootstrapServers;
        this.enabled = enabled;
        this.pollInterval = pollInterval;
        this.batchSize = batchSize;
        this.sendTimeout = sendTimeout;
    }
    /** Package-visible so that tests can drive {@link #relayOnce()} with a producer of their own. */
    volatile Producer<String, byte[]> producer;
    private volatile Thread worker;
    private volatile boolean running;

    void start(@Observes StartupEvent ignored) {
        if (!enabled) {
            LOG.info("outbox relay disabled (batchyard.outbox.enabled=false)");
            return;
        }
        producer = new KafkaProducer<>(producerConfig(), new StringSerializer(), new ByteArraySerializer());
        running = true;
        Thread t = new Thread(this::loop, "outbox-relay");
        t.setDaemon(true);
        worker = t;
        t.start();
    }

    void stop(@Observes ShutdownEvent ignored) {
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
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }

    /** Events relayed since start; exposed for tests and the health check. */
    public long publishedCount() {
        return published.get();
    }

    private void loop() {
        long backoffMs = pollInterval.toMillis();
        while (running) {
            try {
                int relayed = relayOnce();
                backoffMs = pollInterval.toMillis();
                if (relayed < batchSize) {
                    Thread.sleep(pollInterval.toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
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
                backoffMs = Math.min(backoffMs * 2, 5_000);
            }
        }
    }

    /**
     * Relays one batch; returns how many rows it published. Package-visible for tests that drive it directly.
     *
     * <p>Runs on the relay's own thread and waits for each step: {@code send} may block on topic metadata, which must
     * never happen on an event-loop thread, and the lock, the read and the marks belong to one transaction.
     */
    int relayOnce() {
        SqlConnection connection = pool.getConnection().await().atMost(sendTimeout);
        try {
            Transaction tx = connection.begin().await().atMost(sendTimeout);
            try {
                int relayed = relay(connection);
                tx.commit().await().atMost(sendTimeout);
                return relayed;
            } catch (RuntimeException e) {
                tx.rollback().onFailure().recoverWithNull().await().atMost(sendTimeout);
                throw e;
            }
        } finally {
            connection.close().onFailure().recoverWithNull().await().indefinitely();
        }
    }

    private int relay(SqlConnection tx) {
        if (!repository.tryRelayLock(tx).await().atMost(sendTimeout)) {
            return 0;
        }
        List<Pending> rows = repository.unpublished(tx, batchSize).await().atMost(sendTimeout);
        if (rows.isEmpty()) {
            return 0;
        }
        List<Future<RecordMetadata>> sends = new ArrayList<>(rows.size());
        for (Pending row : rows) {
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(row.topic(), row.key(), row.payload());
            record.headers().add(new RecordHeader("event-type", row.eventType().getBytes(StandardCharsets.UTF_8)));
            record.headers().add(new RecordHeader("event-id", uuidBytes(row.eventId())));
            Future<RecordMetadata> send = producer.send(record);
            sends.add(send);
            if (refused(send)) {
                // Refused before it left (no metadata, too large): sending the rows behind it would put them on
                // the topic ahead of it.
                break;
            }
        }
        producer.flush();
        List<Long> done = new ArrayList<>(rows.size());
        for (int i = 0; i < sends.size(); i++) {
            try {
                sends.get(i).get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
                done.add(rows.get(i).position());
            } catch (ExecutionException | TimeoutException e) {
                // Keep order: nothing after the first failure is marked, the next pass re-sends it.
                markFailed(tx, rows.get(i).position(), e);
                break;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        repository.markPublished(tx, done).await().atMost(sendTimeout);
        published.addAndGet(done.size());
        return done.size();
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

    private void markFailed(SqlConnection tx, long position, Exception e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        repository.markFailed(tx, position, cause.getClass().getSimpleName() + ": " + cause.getMessage())
                .await().atMost(sendTimeout);
        LOG.warnf("outbox row %d not published yet: %s", position, cause.getMessage());
    }

    Properties producerConfig() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.LINGER_MS_CONFIG, String.valueOf(LINGER_MS));
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(sendTimeout.toMillis()));
        // The client rejects a delivery timeout shorter than linger + request timeout, so a send timeout under 15 s
        // must shorten the request timeout with it.
        long requestTimeoutMs = Math.max(1, Math.min(sendTimeout.toMillis() - LINGER_MS, 15_000));
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(requestTimeoutMs));
        // send() itself waits for topic metadata; without this bound a pass with the broker down would block the
        // default minute per row while it holds its transaction and the relay lock.
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(sendTimeout.toMillis()));
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "outbox-relay");
        return props;
    }

    private static byte[] uuidBytes(UUID id) {
        return ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits()).array();
    }
}
