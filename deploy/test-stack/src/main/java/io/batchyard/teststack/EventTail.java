package io.batchyard.teststack;

import io.batchyard.schemas.kafka.EventDeserializer;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Prints Batchyard events as they flow, decoded: {@code EventTail <bootstrap> <seconds> <topic>...}. The demo uses it
 * to show each lifecycle event; undecodable records are printed as such instead of stopping the tail.
 */
public final class EventTail {

    private EventTail() {
    }

    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: EventTail <bootstrap> <seconds> <topic>...");
            System.exit(2);
        }
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, args[0]);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "event-tail-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        long deadline = System.currentTimeMillis() + Long.parseLong(args[1]) * 1000;
        DateTimeFormatter time = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            consumer.subscribe(List.of(args).subList(2, args.length));
            // The registry the local stack runs (deploy/local/run.sh exports its URL).
            String registry = System.getenv().getOrDefault("BATCHYARD_SCHEMA_REGISTRY_URL", "http://127.0.0.1:8085");
            EventDeserializer decoder = EventDeserializer.forRegistry(registry);
            System.out.println("[events] listening on " + String.join(", ", List.of(args).subList(2, args.length)));
            System.out.flush();
            while (System.currentTimeMillis() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    String text;
                    try {
                        SpecificRecord event = decoder.deserialize(r.topic(), r.headers(), r.value());
                        text = event.getClass().getSimpleName() + " " + compact(event);
                    } catch (RuntimeException e) {
                        text = "(undecodable: " + e.getMessage() + ")";
                    }
                    System.out.println("[events] " + LocalTime.now().format(time) + " " + r.topic() + " key=" + r.key()
                            + " " + text);
                    System.out.flush();
                }
            }
        }
    }

    /** The event without its envelope, which only adds noise to a demo line. */
    private static String compact(SpecificRecord event) {
        String json = event.toString();
        int headerEnd = json.indexOf("}, ");
        return headerEnd > 0 && json.startsWith("{\"header\"") ? "{" + json.substring(headerEnd + 3) : json;
    }
}
