package io.batchyard.schemas.kafka;

import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.batchyard.schemas.EventCatalog;
import io.vertx.ext.web.client.WebClient;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Kafka serializer for any Batchyard event, through the schema registry ({@link RegistrySerdeConfig} says how); also
 * sets the {@code event-type} header so that readers without Avro can route on it.
 */
public class EventSerializer implements Serializer<SpecificRecord> {

    public static final String EVENT_TYPE_HEADER = "event-type";

    private AvroKafkaSerializer<SpecificRecord> registry = new AvroKafkaSerializer<>();
    /**
     * The web client under a registry client built here, closed with this serializer; null if Apicurio built it.
     */
    private WebClient web;

    public EventSerializer() {
    }

    /** A serializer ready for use against the registry at {@code registryBaseUrl}. */
    public static EventSerializer forRegistry(String registryBaseUrl) {
        EventSerializer serializer = new EventSerializer();
        serializer.configure(RegistrySerdeConfig.forRegistry(registryBaseUrl), false);
        return serializer;
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        Map<String, Object> config = RegistrySerdeConfig.withDefaults(configs);
        RegistryClients.withDeadlines(config).ifPresent(client -> {
            registry = new AvroKafkaSerializer<>(client.facade());
            web = client.web();
        });
        registry.configure(config, isKey);
    }

    @Override
    public byte[] serialize(String topic, SpecificRecord event) {
        return event == null ? null : withRetries(() -> registry.serialize(topic, event));
    }

    @Override
    public byte[] serialize(String topic, Headers headers, SpecificRecord event) {
        if (event == null) {
            return null;
        }
        if (headers != null) {
            headers.remove(EVENT_TYPE_HEADER);
            headers.add(EVENT_TYPE_HEADER, EventCatalog.eventType(event.getClass()).getBytes(StandardCharsets.UTF_8));
        }
        return withRetries(() -> registry.serialize(topic, headers, event));
    }

    /**
     * Serializes, trying again twice (100 ms, then 200 ms later) when the registry could not be reached. The usual
     * cause is a pooled connection that the client's own idle deadline closed just as a request went out on it
     * ({@link RegistryClients}): the next attempt opens a new one. A registry that stays away still fails the call
     * after the third attempt, as before, for the caller to handle (the outbox relay tries its pass again).
     */
    private static byte[] withRetries(Supplier<byte[]> serialize) {
        long backoff = 100;
        for (int attempt = 1; ; attempt++) {
            try {
                return serialize.get();
            } catch (RuntimeException e) {
                if (attempt == 3 || !EventDeserializer.unreachable(e)) {
                    throw e;
                }
                try {
                    Thread.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                backoff *= 2;
            }
        }
    }

    @Override
    public void close() {
        registry.close();
        if (web != null) {
            web.close();
        }
    }
}
