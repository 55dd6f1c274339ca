package io.batchyard.teststack;

import io.batchyard.schemas.kafka.EventDeserializer;
import io.batchyard.schemas.Events;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Reads dead-letter topics ({@code batchyard.dlq.*}) from their beginning to their current end ({@link TopicContents}).
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

    private static final EventDeserializer DECODER =
            RegistrySerdes.deserializer(Infrastructure.get().schemaRegistryUrl());

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
        List<Letter> letters = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : TopicContents.read(bootstrap, topics, Duration.ofSeconds(10),
                Duration.ofSeconds(30))) {
            Map<String, String> headers = new LinkedHashMap<>();
            for (Header h : r.headers()) {
                headers.put(h.key(), h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8));
            }
            letters.add(new Letter(r.topic(), r.partition(), r.offset(), headers, r.value(), decode(r)));
        }
        return letters;
    }

    private static SpecificRecord decode(ConsumerRecord<byte[], byte[]> r) {
        try {
            return r.value() == null ? null : DECODER.deserialize(r.topic(), r.headers(), r.value());
        } catch (RuntimeException undecodable) {
            return null;
        }
    }
}
