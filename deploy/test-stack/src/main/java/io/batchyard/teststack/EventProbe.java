package io.batchyard.teststack;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads Batchyard events back from the real broker, so tests assert on what consumers would really see. It reads every
 * partition of a topic from the beginning and keeps everything it read; tests match on their own ids. It is assigned
 * its partitions rather than joining a group, so a broker restart or a long pause between polls never makes it read a
 * record twice.
 */
public final class EventProbe implements AutoCloseable {

    /** A record as read: its key, the decoded event, its partition and its timestamp (epoch ms, set by the producer). */
    public record Received<T>(String key, T event, int partition, long timestamp) {
    }

    private final KafkaConsumer<String, SpecificRecord> consumer;
    private final List<Received<SpecificRecord>> seen = new ArrayList<>();

    private EventProbe(String bootstrap, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "probe-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                RegistrySerdes.deserializer(Infrastructure.get().schemaRegistryUrl()));
        List<TopicPartition> partitions = List.of();
        Instant deadline = Instant.now().plusSeconds(30);
        while (partitions.isEmpty() && Instant.now().isBefore(deadline)) {
            // A topic created a moment ago (or auto-created by this very lookup) may not list its partitions yet.
            partitions = consumer.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition()))
                    .toList();
            if (partitions.isEmpty()) {
                ChildProcesses.sleep(100);
            }
        }
        if (partitions.isEmpty()) {
            consumer.close();
            throw new IllegalStateException("topic " + topic + " has no partitions");
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    public static EventProbe on(String bootstrap, String topic) {
        return new EventProbe(bootstrap, topic);
    }

    /** Waits for the first event of {@code type} that matches; fails with what was seen instead. */
    public <T extends SpecificRecord> Received<T> await(Class<T> type, Predicate<T> match, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        int checked = 0;
        while (true) {
            for (; checked < seen.size(); checked++) {
                Received<SpecificRecord> r = seen.get(checked);
                if (type.isInstance(r.event()) && match.test(type.cast(r.event()))) {
                    return new Received<>(r.key(), type.cast(r.event()), r.partition(), r.timestamp());
                }
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("no matching " + type.getSimpleName() + " within " + timeout + "; saw "
                        + seen.size() + " event(s): " + seen.stream().map(r -> r.event().getClass().getSimpleName()
                        + "(key " + r.key() + ")").toList());
            }
            poll(Duration.ofMillis(200));
        }
    }

    /** Every matching event of {@code type} seen after reading for {@code quiet} with nothing new. */
    public <T extends SpecificRecord> List<T> all(Class<T> type, Predicate<T> match, Duration quiet) {
        int before;
        do {
            before = seen.size();
            poll(quiet);
        } while (seen.size() != before);
        return received(type, match).stream().map(Received::event).toList();
    }

    /** Every matching event of {@code type} read so far, with its record's key, partition and timestamp. */
    public <T extends SpecificRecord> List<Received<T>> received(Class<T> type, Predicate<T> match) {
        return seen.stream().filter(r -> type.isInstance(r.event()) && match.test(type.cast(r.event())))
                .map(r -> new Received<>(r.key(), type.cast(r.event()), r.partition(), r.timestamp())).toList();
    }

    /** Reads what arrives within {@code timeout}. */
    public void poll(Duration timeout) {
        for (ConsumerRecord<String, SpecificRecord> record : consumer.poll(timeout)) {
            seen.add(new Received<>(record.key(), record.value(), record.partition(), record.timestamp()));
        }
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(2));
    }
}
