package io.batchyard.teststack;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What topics hold right now, read by assignment from their beginning to the end offsets taken at the start: no
 * consumer group, so a read is complete and repeatable (no rebalance, no committed offsets to skip past).
 */
public final class TopicContents {

    private TopicContents() {
    }

    /**
     * Every record of the topics {@code topics} accepts, partition by partition in offset order.
     *
     * @param metadata how long to wait for the topic list and the end offsets
     * @param deadline how long the whole read may take before it fails
     */
    public static List<ConsumerRecord<byte[], byte[]>> read(String bootstrap, Predicate<String> topics,
                                                            Duration metadata, Duration deadline) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "topic-contents-" + UUID.randomUUID());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.listTopics(metadata).entrySet().stream()
                    .filter(t -> topics.test(t.getKey()))
                    .flatMap(t -> t.getValue().stream().map(p -> new TopicPartition(t.getKey(), p.partition())))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, metadata);
            Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> read = new LinkedHashMap<>();
            partitions.forEach(p -> read.put(p, new ArrayList<>()));
            Instant until = Instant.now().plus(deadline);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (Instant.now().isAfter(until)) {
                    throw new IllegalStateException("could not read the topics to their end " + end);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    read.get(new TopicPartition(r.topic(), r.partition())).add(r);
                }
            }
            return read.values().stream().flatMap(List::stream).toList();
        }
    }
}
