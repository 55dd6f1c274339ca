package io.batchyard.queue.lifecycle;

import io.batchyard.schemas.EventCodec;
import io.batchyard.schemas.Events;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a dead-letter topic from the beginning as raw records, headers included. */
final class DeadLetters {

    /** One dead-lettered record: its headers as text, its value bytes, and the event in it when it decodes. */
    record Letter(Map<String, String> headers, byte[] value, SpecificRecord event) {

        String header(String name) {
            return headers.get(name);
        }

        String eventId() {
            return event == null ? null : Events.eventId(event).toString();
        }

        /** Every header but the raw bytes of an undecodable record, which are the record itself, not a reason. */
        String reasonHeaders() {
            StringBuilder all = new StringBuilder();
            headers.forEach((k, v) -> {
                if (!k.endsWith("-data")) {
                    all.append(k).append('=').append(v).append('\n');
                }
            });
            return all.toString();
        }
    }

    private DeadLetters() {
    }

    /** Everything on {@code topic} up to its current end. */
    static List<Letter> read(String bootstrap, String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + UUID.randomUUID());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<Letter> letters = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.currentTimeMillis() + 30_000;
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.currentTimeMillis() > deadline) {
                    throw new AssertionError("could not read " + topic + " to its end " + end);
                }
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    Map<String, String> headers = new HashMap<>();
                    for (Header h : r.headers()) {
                        headers.put(h.key(), h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8));
                    }
                    letters.add(new Letter(headers, r.value(), decode(r.value())));
                }
            }
        }
        return letters;
    }

    private static SpecificRecord decode(byte[] value) {
        if (value == null) {
            return null;
        }
        try {
            return EventCodec.decode(value);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
