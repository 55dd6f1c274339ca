package io.batchyard.teststack;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Everything on the dead-letter topics ({@code batchyard.dlq.*}) of a broker, read from the beginning to their end. */
public final class DeadLetters {

    private static final String PREFIX = "batchyard.dlq.";

    private DeadLetters() {
    }

    /** One line per dead-lettered record: topic, partition, offset and its {@code dead-letter-*} headers (the reason). */
    public static List<String> read(String bootstrap) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "dead-letters-" + UUID.randomUUID());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<String> found = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.listTopics(Duration.ofSeconds(10)).entrySet().stream()
                    .filter(t -> t.getKey().startsWith(PREFIX))
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
                    found.add(r.topic() + "@" + r.partition() + ":" + r.offset() + " " + headers(r));
                }
            }
        }
        return found;
    }

    private static String headers(ConsumerRecord<byte[], byte[]> r) {
        return StreamSupport.stream(r.headers().spliterator(), false)
                .filter(h -> h.key().startsWith("dead-letter"))
                .map(h -> h.key() + "=" + (h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8)))
                .toList().toString();
    }
}
