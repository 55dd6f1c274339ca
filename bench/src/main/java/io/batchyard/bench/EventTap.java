package io.batchyard.bench;

import io.batchyard.schemas.kafka.EventDeserializer;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Follows topics from their end and hands each record, decoded through the schema registry, to a handler with the
 * moment it arrived. The poll thread only stamps each record with the moment its poll returned and hands it on;
 * another thread decodes it and calls the handler. Decoding the first record fetches its schema from the registry,
 * and a handler may wait for HaltJob's answer that its event overtook: neither may hold up the arrival stamps of the
 * records behind, or the client's own cold start would be counted as latency.
 */
final class EventTap implements AutoCloseable {

    /** A record and when the poll that fetched it returned (nanos, and wall clock in ms). */
    record Arrival(ConsumerRecord<String, byte[]> record, long nanos, long wallMs) {
    }

    interface Handler {
        void on(SpecificRecord event, Arrival arrival);
    }

    private final AtomicBoolean listening = new AtomicBoolean(true);
    private final CountDownLatch ready = new CountDownLatch(1);
    private final Thread poller;

    private EventTap(String kafka, String schemaRegistry, List<String> topics, Handler handler) {
        this.poller = new Thread(() -> listen(kafka, schemaRegistry, topics, handler), "bench-poller");
    }

    /** Starts following {@code topics}; returns once the consumer has its partitions and their end positions. */
    static EventTap start(String kafka, String schemaRegistry, List<String> topics, Handler handler)
            throws InterruptedException {
        EventTap tap = new EventTap(kafka, schemaRegistry, topics, handler);
        tap.poller.start();
        if (!tap.ready.await(30, TimeUnit.SECONDS)) {
            System.out.println("[bench] WARNING: the Kafka consumer got no partitions within 30 s");
        }
        return tap;
    }

    private void listen(String kafka, String schemaRegistry, List<String> topics, Handler handler) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        BlockingQueue<Arrival> arrivals = new LinkedBlockingQueue<>();
        Thread matcher = new Thread(() -> decode(schemaRegistry, arrivals, handler), "bench-matcher");
        matcher.start();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(topics);
            while (consumer.assignment().isEmpty()) {
                consumer.poll(Duration.ofMillis(100));
            }
            // "latest" is looked up lazily: fix every partition's position now, so that no event of the run that
            // comes before the first poll of its partition is skipped.
            for (TopicPartition partition : consumer.assignment()) {
                consumer.position(partition);
            }
            ready.countDown();
            while (listening.get()) {
                ConsumerRecords<String, byte[]> polled = consumer.poll(Duration.ofMillis(50));
                long arrived = System.nanoTime();
                long arrivedWall = System.currentTimeMillis();
                for (ConsumerRecord<String, byte[]> r : polled) {
                    arrivals.add(new Arrival(r, arrived, arrivedWall));
                }
            }
        } finally {
            matcher.interrupt();
        }
    }

    private static void decode(String schemaRegistry, BlockingQueue<Arrival> arrivals, Handler handler) {
        try (EventDeserializer decoder = EventDeserializer.forRegistry(schemaRegistry)) {
            while (!Thread.currentThread().isInterrupted()) {
                Arrival a;
                try {
                    a = arrivals.take();
                } catch (InterruptedException e) {
                    return;
                }
                ConsumerRecord<String, byte[]> r = a.record();
                handler.on(decoder.deserialize(r.topic(), r.headers(), r.value()), a);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        listening.set(false);
        poller.join(5_000);
    }
}
