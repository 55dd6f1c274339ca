package io.batchyard.teststack;

import io.batchyard.schemas.RecordHeaders;
import io.batchyard.teststack.identity.Identity;
import java.nio.charset.StandardCharsets;

import io.batchyard.schemas.EventCodec;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Publishes to the real broker, as another service or an external producer would. */
public final class EventPublisher implements AutoCloseable {

    private final KafkaProducer<String, byte[]> producer;

    public EventPublisher(String bootstrap) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * Sends a contract event (single-object encoded) as an administrator would (the {@code authorization} header) and
     * waits for the broker's acknowledgement.
     */
    public void publish(String topic, Object key, SpecificRecord event) {
        publishAs("Bearer " + Identity.get().adminToken(), topic, key, event);
    }

    /** Sends a contract event with this {@code authorization} header value, or none when it is null. */
    public void publishAs(String authorization, String topic, Object key, SpecificRecord event) {
        send(topic, String.valueOf(key), EventCodec.encode(event), authorization);
    }

    /** Sends raw bytes, e.g. a poison pill that no schema decodes. */
    public void publishRaw(String topic, String key, byte[] value) {
        send(topic, key, value, "Bearer " + Identity.get().adminToken());
    }

    private void send(String topic, String key, byte[] value, String authorization) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key, value);
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
    }
}
