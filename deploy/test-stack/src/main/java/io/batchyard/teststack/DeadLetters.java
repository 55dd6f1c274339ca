package io.batchyard.teststack;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Everything on the dead-letter topics ({@code batchyard.dlq.*}) of a broker, read from the beginning. */
public final class DeadLetters {

    private static final Pattern DLQ_TOPICS = Pattern.compile("batchyard\\.dlq\\..*");

    private DeadLetters() {
    }

    /** One line per dead-lettered record: topic, partition, offset and its headers (the reason). */
    public static List<String> read(String bootstrap, Duration quiet) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "dead-letters-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "500");
        List<String> found = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(DLQ_TOPICS);
            // The first polls only join the group and discover the topics (bounded: there may be none); from the
            // assignment on, read until nothing came for `quiet`.
            long joinDeadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (consumer.assignment().isEmpty() && System.nanoTime() < joinDeadline) {
                collect(consumer.poll(Duration.ofMillis(200)), found);
            }
            long quietSince = System.nanoTime();
            while (System.nanoTime() - quietSince < quiet.toNanos()) {
                if (collect(consumer.poll(Duration.ofMillis(200)), found)) {
                    quietSince = System.nanoTime();
                }
            }
        }
        return found;
    }

    private static boolean collect(ConsumerRecords<byte[], byte[]> records, List<String> found) {
        for (ConsumerRecord<byte[], byte[]> r : records) {
            found.add(r.topic() + "@" + r.partition() + ":" + r.offset() + " " + headers(r));
        }
        return !records.isEmpty();
    }

    private static String headers(ConsumerRecord<byte[], byte[]> r) {
        return StreamSupport.stream(r.headers().spliterator(), false)
                .filter(h -> h.key().startsWith("dead-letter"))
                .map(h -> h.key() + "=" + (h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8)))
                .toList().toString();
    }
}
