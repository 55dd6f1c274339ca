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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.RecordMetadata;

/** Publishes to the real broker, as another service or an external producer would. */
public final class EventPublisher implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;
    private final Properties lingering;
    private KafkaProducer<String, byte[]> together;
    private final EventSerializer serializer;

    public EventPublisher(String bootstrap) {
        this(bootstrap, Infrastructure.get().schemaRegistryUrl());
    }

    public EventPublisher(String bootstrap, String schemaRegistryUrl) {
        serializer = RegistrySerdes.serializer(schemaRegistryUrl);
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
        // Made at the first publishTogether: it holds what it is given until flushed, so that records sent together
        // leave in one request.
        Properties lingering = new Properties();
        lingering.putAll(props);
        lingering.put(ProducerConfig.LINGER_MS_CONFIG, "60000");
        this.lingering = lingering;
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

    /**
     * Sends several records to one key in one request (a producer that lingers until it is flushed), then waits for
     * every acknowledgement: they are one batch on the partition, so a consumer polls them together. Each value is a
     * contract event or raw bytes (poison).
     *
     * @return where each record landed, in order
     */
    public synchronized List<RecordMetadata> publishTogether(String topic, Object key, List<?> values) {
        if (together == null) {
            together = new KafkaProducer<>(lingering, new StringSerializer(), new ByteArraySerializer());
        }
        String authorization = "Bearer " + Identity.get().adminToken();
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (Object value : values) {
            Headers headers = new org.apache.kafka.common.header.internals.RecordHeaders();
            byte[] bytes = value instanceof byte[] raw ? raw : serializer.serialize(topic, headers, (SpecificRecord) value);
            headers.add(RecordHeaders.AUTHORIZATION, authorization.getBytes(StandardCharsets.UTF_8));
            sent.add(together.send(new ProducerRecord<>(topic, null, String.valueOf(key), bytes, headers)));
        }
        together.flush();
        List<RecordMetadata> landed = new ArrayList<>();
        try {
            for (Future<RecordMetadata> future : sent) {
                landed.add(future.get(30, TimeUnit.SECONDS));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("publishing to " + topic + " failed", e);
        }
        return landed;
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
        if (together != null) {
            together.close(Duration.ofSeconds(5));
        }
        serializer.close();
    }
}
