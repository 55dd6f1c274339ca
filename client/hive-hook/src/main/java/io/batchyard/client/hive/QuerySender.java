package io.batchyard.client.hive;

import io.batchyard.client.wire.RegistryWire;
import io.batchyard.events.EventHeader;
import io.batchyard.events.lineage.QueryRegistered;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends executed queries to lineage-service as {@code QueryRegistered} on {@code batchyard.lineage.queries}, with no
 * Hive type in sight.
 *
 * <p>It never fails the query: every failure (registry or broker unreachable, a refused record, a timeout) is logged
 * and the query is <b>dropped</b>. Each send waits at most the send timeout for the registry and as long again for
 * the broker's acknowledgement; after a failure, queries are dropped at once, without waiting, for the pause after
 * failure, so an outage does not slow every query of a script down. Dropping, not spooling, because the hook runs in
 * short-lived Hive CLI and Oozie launcher JVMs whose local disks nobody drains later; a lost registration is re-sent
 * by running the step again or over lineage-service's {@code POST /queries}.
 *
 * <p>One sender (and one Kafka producer) per distinct settings lives for the JVM: HiveServer2 runs the hook for
 * every query of every session, and a producer per query would reconnect each time.
 */
public final class QuerySender implements AutoCloseable {

    static final String PRODUCER = "batchyard-hive-hook";
    private static final Logger LOG = LoggerFactory.getLogger(QuerySender.class);
    private static final Map<HookSettings, QuerySender> SHARED = new ConcurrentHashMap<>();

    private final HookSettings settings;
    private final RegistryWire wire;
    private volatile Producer<String, byte[]> producer;
    private volatile long pausedUntilNanos;
    private volatile boolean paused;

    public QuerySender(HookSettings settings) {
        this.settings = settings;
        this.wire = new RegistryWire(settings.registryUrl(), settings.sendTimeout());
    }

    /** The JVM's sender for these settings; closed (its producer flushed) when the JVM stops. */
    public static QuerySender shared(HookSettings settings) {
        return SHARED.computeIfAbsent(settings, s -> {
            QuerySender sender = new QuerySender(s);
            Runtime.getRuntime().addShutdownHook(new Thread(sender::close, "batchyard-hive-hook-close"));
            return sender;
        });
    }

    /**
     * Registers the query; never throws.
     *
     * @return true when the broker acknowledged the record, false when it was dropped
     */
    public boolean send(ExecutedQuery query) {
        if (paused && System.nanoTime() - pausedUntilNanos < 0) {
            LOG.debug("Batchyard lineage: dropped query of process {} (sending paused after a failure)",
                    query.processId());
            return false;
        }
        try {
            QueryRegistered event = event(query);
            byte[] value = wire.frame(settings.topic(), event, settings.sendTimeout());
            ProducerRecord<String, byte[]> record = new ProducerRecord<>(settings.topic(),
                    String.valueOf(query.processId()), value);
            record.headers().add("event-type", "QueryRegistered".getBytes(StandardCharsets.UTF_8));
            record.headers().add("event-id", uuidBytes(UUID.fromString(event.getHeader().getEventId())));
            producer().send(record).get(settings.sendTimeout().toMillis(), TimeUnit.MILLISECONDS);
            if (paused) {
                paused = false;
                LOG.info("Batchyard lineage: sending again to {}", settings.bootstrapServers());
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return dropped(query, e);
        } catch (Exception | LinkageError e) {
            return dropped(query, e);
        }
    }

    static QueryRegistered event(ExecutedQuery query) {
        EventHeader header = EventHeader.newBuilder().setEventId(UUID.randomUUID().toString())
                .setOccurredAt(Instant.now()).setProducer(PRODUCER).setInstanceExecId(query.instanceExecId()).build();
        return QueryRegistered.newBuilder().setHeader(header)
                .setQueryId(query.queryId() == null ? null : query.queryId().toString()).setQueryType("HIVE")
                .setQueryText(query.queryText()).setProcessId(query.processId())
                .setInstanceExecId(query.instanceExecId()).setDefaultDatabase(query.defaultDatabase()).build();
    }

    private boolean dropped(ExecutedQuery query, Throwable e) {
        pausedUntilNanos = System.nanoTime() + settings.pauseAfterFailure().toNanos();
        paused = true;
        LOG.warn("Batchyard lineage: dropped query of process {} (run {}), not sent to {}: {}; queries are dropped "
                        + "without trying for the next {} s", query.processId(), query.instanceExecId(),
                settings.bootstrapServers(), e.toString(), settings.pauseAfterFailure().toSeconds());
        return false;
    }

    private Producer<String, byte[]> producer() {
        Producer<String, byte[]> p = producer;
        if (p == null) {
            synchronized (this) {
                if (producer == null) {
                    producer = new KafkaProducer<>(producerConfig(settings), new StringSerializer(),
                            new ByteArraySerializer());
                }
                p = producer;
            }
        }
        return p;
    }

    static Properties producerConfig(HookSettings settings) {
        Properties config = new Properties();
        config.putAll(settings.kafka());
        int timeout = (int) Math.min(Integer.MAX_VALUE, settings.sendTimeout().toMillis());
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, PRODUCER);
        config.putIfAbsent(ProducerConfig.ACKS_CONFIG, "all");
        // Bounded by the send timeout: waiting for topic metadata, for an answer, and for delivery with retries.
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, String.valueOf(timeout));
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, String.valueOf(timeout));
        config.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, String.valueOf(timeout));
        // No native codecs ship with the hook.
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        return config;
    }

    private static byte[] uuidBytes(UUID id) {
        return ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits())
                .array();
    }

    @Override
    public void close() {
        Producer<String, byte[]> p = producer;
        if (p != null) {
            try {
                p.close(settings.sendTimeout());
            } catch (RuntimeException e) {
                LOG.debug("Batchyard lineage: closing the producer failed", e);
            }
        }
    }
}
