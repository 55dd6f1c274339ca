package io.batchyard.teststack;

import io.batchyard.schemas.EventCatalog;
import io.batchyard.schemas.EventCodec;
import io.batchyard.schemas.RecordHeaders;
import io.batchyard.schemas.kafka.EventSerializer;
import io.batchyard.teststack.identity.Identity;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Publishes to the real broker, as another service or an external producer would. */
public final class EventPublisher implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;
    private final EventSerializer serializer;

    public EventPublisher(String bootstrap) {
        this(bootstrap, Infrastructure.get().schemaRegistryUrl());
    }

    public EventPublisher(String bootstrap, String schemaRegistryUrl) {
        serializer = EventSerializer.forRegistry(schemaRegistryUrl);
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * Sends a contract event (in the registry's wire format, as every producer writes it) as an administrator would (the {@code authorization} header) and
     * waits for the broker's acknowledgement.
     */
    public void publish(String topic, Object key, SpecificRecord event) {
        publishAs("Bearer " + Identity.get().adminToken(), topic, key, event);
    }

    /** Sends a contract event with this {@code authorization} header value, or none when it is null. */
    public void publishAs(String authorization, String topic, Object key, SpecificRecord event) {
        Headers headers = new org.apache.kafka.common.header.internals.RecordHeaders();
        byte[] value = serializer.serialize(topic, headers, event);
        send(new ProducerRecord<>(topic, null, String.valueOf(key), value, headers), authorization);
    }

    /**
     * Sends a contract event the way releases before the schema registry wrote it (Avro single-object encoding, named
     * by its {@code event-type} header), as records still in a topic after an upgrade are.
     */
    public void publishSingleObject(String topic, Object key, SpecificRecord event) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, String.valueOf(key), EventCodec.encode(event));
        record.headers().add(EventSerializer.EVENT_TYPE_HEADER,
                EventCatalog.eventType(event.getClass()).getBytes(StandardCharsets.UTF_8));
        send(record, "Bearer " + Identity.get().adminToken());
    }

    /** Sends raw bytes, e.g. a poison pill that no schema decodes. */
    public void publishRaw(String topic, String key, byte[] value) {
        send(new ProducerRecord<>(topic, key, value), "Bearer " + Identity.get().adminToken());
    }

    private void send(ProducerRecord<String, byte[]> record, String authorization) {
        String topic = record.topic();
        if (authorization != null) {
            record.headers().add(RecordHeaders.AUTHORIZATION, authorization.getBytes(StandardCharsets.UTF_8));
        }
        try {
            producer.send(record).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("publishing to " + topic + " failed", e);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
        serializer.close();
    }
}
