package io.batchyard.teststack;

import io.batchyard.schemas.EventCodec;
import io.batchyard.schemas.Events;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads dead-letter topics ({@code batchyard.dlq.*}) from their beginning to their current end, by assignment rather
 * than a consumer group, so a read is complete and repeatable (no rebalance, no committed offsets to skip past).
 */
public final class DeadLetters {

    private static final String PREFIX = "batchyard.dlq.";

    /** One dead-lettered record: where it sits, its headers as text, its bytes, and the event in it if it decodes. */
    public record Letter(String topic, int partition, long offset, Map<String, String> headers, byte[] value,
                         SpecificRecord event) {

        public String header(String name) {
            return headers.get(name);
        }

        public String eventId() {
            return event == null ? null : Events.eventId(event).toString();
        }

        /** Every header but the raw bytes of an undecodable record, which are the record itself, not a reason. */
        public String reasonHeaders() {
            StringBuilder all = new StringBuilder();
            headers.forEach((k, v) -> {
                if (!k.endsWith("-data")) {
                    all.append(k).append('=').append(v).append('\n');
                }
            });
            return all.toString();
        }

        /** Topic, partition, offset and the {@code dead-letter-*} headers: enough to name a record in a failure. */
        public String describe() {
            StringBuilder reason = new StringBuilder();
            headers.forEach((k, v) -> {
                if (k.startsWith("dead-letter") && !k.endsWith("-data")) {
                    reason.append(reason.isEmpty() ? "" : ", ").append(k).append('=').append(v);
                }
            });
            return topic + "@" + partition + ":" + offset + " [" + reason + "]";
        }
    }

    private DeadLetters() {
    }

    /** Everything on one dead-letter topic up to its current end. */
    public static List<Letter> read(String bootstrap, String topic) {
        return read(bootstrap, topic::equals);
    }

    /** Everything on every {@code batchyard.dlq.*} topic up to its current end. */
    public static List<Letter> readAll(String bootstrap) {
        return read(bootstrap, t -> t.startsWith(PREFIX));
    }

    /** The dead-lettered copy of {@code event} on {@code topic}, if it is there now. */
    public static Optional<Letter> find(String bootstrap, String topic, SpecificRecord event) {
        String id = Events.eventId(event).toString();
        return read(bootstrap, topic).stream().filter(l -> id.equals(l.eventId())).findFirst();
    }

    private static List<Letter> read(String bootstrap, Predicate<String> topics) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "dead-letters-" + UUID.randomUUID());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<Letter> letters = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.listTopics(Duration.ofSeconds(10)).entrySet().stream()
                    .filter(t -> topics.test(t.getKey()))
                    .flatMap(t -> t.getValue().stream().map(p -> new TopicPartition(t.getKey(), p.partition())))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read the dead-letter topics to their end " + end);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    Map<String, String> headers = new LinkedHashMap<>();
                    for (Header h : r.headers()) {
                        headers.put(h.key(), h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8));
                    }
                    letters.add(new Letter(r.topic(), r.partition(), r.offset(), headers, r.value(), decode(r.value())));
                }
            }
        }
        return letters;
    }

    private static SpecificRecord decode(byte[] value) {
        try {
            return value == null ? null : EventCodec.decode(value);
        } catch (RuntimeException undecodable) {
            return null;
        }
    }
}
