package io.batchyard.schemas.kafka;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.batchyard.schemas.EventCatalog;
import io.batchyard.schemas.EventCodec;
import io.batchyard.schemas.EventCodec.UnknownEventException;
import io.vertx.core.http.HttpClosedException;
import io.vertx.ext.web.client.WebClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Kafka deserializer for any Batchyard event, into today's generated class. It reads both forms a topic may hold:
 * <ul>
 *   <li>registry records (magic byte {@code 0} + schema id), the form every producer writes now; the writer schema
 *       comes from the registry, by id, and is cached;</li>
 *   <li>records of releases before the registry (Avro single-object encoding, {@code C3 01} + schema fingerprint),
 *       named by their {@code event-type} header, until the topic's retention drops them.</li>
 * </ul>
 * Foreign bytes throw {@link UnknownEventException}, so consumers dead-letter them. A registry that cannot be reached
 * is waited for, with backoff, on the polling thread: the record is neither skipped nor dead-lettered.
 */
public class EventDeserializer implements Deserializer<SpecificRecord> {

    private static final System.Logger LOG = System.getLogger(EventDeserializer.class.getName());
    private static final byte REGISTRY_MAGIC = 0x0;
    private static final long MAX_BACKOFF_MS = 5_000;

    private AvroKafkaDeserializer<SpecificRecord> registry = new AvroKafkaDeserializer<>();
    /**
     * The web client under a registry client built here, closed with this deserializer; null if Apicurio built it.
     */
    private WebClient web;
    private volatile boolean configured;

    public EventDeserializer() {
    }

    /** A deserializer ready for use against the registry at {@code registryBaseUrl}. */
    public static EventDeserializer forRegistry(String registryBaseUrl) {
        EventDeserializer deserializer = new EventDeserializer();
        deserializer.configure(RegistrySerdeConfig.forRegistry(registryBaseUrl), false);
        return deserializer;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        if (configs.get(RegistrySerdeConfig.REGISTRY_URL) == null) {
            // Without a registry only records of releases before it can be read; say so once, at start.
            LOG.log(System.Logger.Level.WARNING, "no " + RegistrySerdeConfig.REGISTRY_URL + " configured: registry records cannot be decoded");
            return;
        }
        Map<String, Object> config = RegistrySerdeConfig.withDefaults(configs);
        RegistryClients.withDeadlines(config).ifPresent(client -> {
            registry = new AvroKafkaDeserializer<>(client.facade());
            web = client.web();
        });
        registry.configure(config, isKey);
        configured = true;
    }

    @Override
    public SpecificRecord deserialize(String topic, byte[] data) {
        return deserialize(topic, null, data);
    }

    @Override
    public SpecificRecord deserialize(String topic, Headers headers, byte[] data) {
        if (data == null) {
            return null;
        }
        if (data.length > 5 && data[0] == REGISTRY_MAGIC) {
            return fromRegistry(topic, headers, data);
        }
        if (EventCodec.isSingleObject(data)) {
            return EventCodec.decode(data, eventType(headers));
        }
        throw new UnknownEventException("neither a registry record nor a single-object encoded one");
    }

    private SpecificRecord fromRegistry(String topic, Headers headers, byte[] data) {
        if (!configured) {
            throw new UnknownEventException("a registry record, but no schema registry is configured");
        }
        long backoff = 100;
        long firstFailure = 0;
        while (true) {
            try {
                return registry.deserialize(topic, headers, data);
            } catch (RuntimeException e) {
                if (!unreachable(e)) {
                    throw e instanceof UnknownEventException u ? u
                            : new UnknownEventException("cannot decode registry record: " + e.getMessage());
                }
                long now = System.currentTimeMillis();
                if (firstFailure == 0) {
                    firstFailure = now;
                    LOG.log(System.Logger.Level.WARNING, "schema registry unreachable while reading " + topic + " (" + e.getMessage()
                            + "); waiting for it");
                }
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for the schema registry", e);
                }
                backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
            }
        }
    }

    /**
     * A failure to reach the registry (connection refused, timed out, cut, or closed by the client's idle deadline
     * while it waited for an answer), as opposed to an answer.
     */
    static boolean unreachable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof IOException || t instanceof HttpClosedException) {
                return true;
            }
        }
        return false;
    }

    private static Class<? extends SpecificRecord> eventType(Headers headers) {
        Header header = headers == null ? null : headers.lastHeader(EventSerializer.EVENT_TYPE_HEADER);
        if (header == null) {
            throw new UnknownEventException("a single-object encoded record without an event-type header");
        }
        String name = new String(header.value(), StandardCharsets.UTF_8);
        return EventCatalog.byName(name)
                .orElseThrow(() -> new UnknownEventException("unknown event type " + name));
    }

    @Override
    public void close() {
        registry.close();
        if (web != null) {
            web.close();
        }
    }
}
