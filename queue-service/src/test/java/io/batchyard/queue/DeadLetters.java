package io.batchyard.queue;

import io.batchyard.schemas.EventCodec;
import io.batchyard.schemas.Events;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a dead-letter topic from the beginning; finds a dead-lettered event by its id, with its headers as text. */
public final class DeadLetters implements AutoCloseable {

    /** A dead-lettered event and every header of its record, decoded as UTF-8. */
    public record DeadLetter(SpecificRecord event, List<String> headers) {

        public boolean headersMention(String text) {
            return headers.stream().anyMatch(h -> h.contains(text));
        }
    }

    private final KafkaConsumer<String, byte[]> consumer;
    private final List<DeadLetter> seen = new ArrayList<>();

    public DeadLetters(String bootstrap, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "dlq-probe-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topic));
    }

    /** Waits for the dead-lettered copy of {@code event}. */
    public DeadLetter await(SpecificRecord event, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                seen.add(new DeadLetter(decode(r.value()), headers(r)));
            }
            Optional<DeadLetter> found = find(event);
            if (found.isPresent()) {
                return found.get();
            }
        }
        throw new AssertionError("event " + Events.eventId(event) + " was not dead-lettered within " + timeout + "; saw "
                + seen.size() + " dead letter(s)");
    }

    /** Whether the dead-lettered copy of {@code event} is among the records read so far. */
    public boolean seen(SpecificRecord event) {
        return find(event).isPresent();
    }

    private Optional<DeadLetter> find(SpecificRecord event) {
        UUID eventId = Events.eventId(event);
        return seen.stream().filter(d -> d.event() != null && eventId.equals(Events.eventId(d.event()))).findFirst();
    }

    private static SpecificRecord decode(byte[] value) {
        try {
            return value == null ? null : EventCodec.decode(value);
        } catch (RuntimeException undecodable) {
            return null;
        }
    }

    private static List<String> headers(ConsumerRecord<String, byte[]> r) {
        List<String> out = new ArrayList<>();
        for (Header h : r.headers()) {
            out.add(h.key() + "=" + (h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8)));
        }
        return out;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(2));
    }
}
