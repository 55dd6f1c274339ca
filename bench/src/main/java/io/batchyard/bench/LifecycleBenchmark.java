package io.batchyard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.schemas.Topics;
import io.batchyard.schemas.kafka.EventDeserializer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * N parallel job chains against a running stack. Each chain is an upstream job U (three steps) and a downstream job D
 * whose step consumes U's output. One lifecycle = InitJob(U), InitStep/HaltStep x3, HaltJob(U), and U's target
 * batch visible downstream as a BatchEnqueued event. Reports lifecycles/s and the HaltJob -> BatchEnqueued latency.
 *
 * <p>Usage: {@code LifecycleBenchmark [--chains 8] [--lifecycles 25] [--registry URL] [--execution URL] [--queue URL]
 * [--kafka host:port] [--schema-registry URL] [--window-start COMMAND] [--window-end COMMAND]}, with a bearer token of roles developer and
 * operator in {@code BATCHYARD_TOKEN}. The measured window runs from the first lifecycle call to the last fan-out seen;
 * the two commands (run with {@code bash -c}, waited for) mark its ends, so that bench/run.sh counts the CPU every
 * process spent in it, not in the client's start, the registration of the chains or the read models' catch-up.
 */
public final class LifecycleBenchmark {

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = options(args);
        int chains = Integer.parseInt(opts.getOrDefault("chains", "8"));
        int lifecycles = Integer.parseInt(opts.getOrDefault("lifecycles", "25"));
        String registry = opts.getOrDefault("registry", "http://127.0.0.1:8081");
        String execution = opts.getOrDefault("execution", "http://127.0.0.1:8082");
        String queue = opts.getOrDefault("queue", "http://127.0.0.1:8083");
        String kafka = opts.getOrDefault("kafka", "127.0.0.1:9092");
        // The batches topic's records name their schema by id: the client decodes them through the stack's registry.
        String schemaRegistry = opts.getOrDefault("schema-registry",
                System.getenv().getOrDefault("BATCHYARD_SCHEMA_REGISTRY_URL", "http://127.0.0.1:8085"));
        String windowStart = opts.get("window-start");
        String windowEnd = opts.get("window-end");
        Http http = new Http();

        System.out.printf("[bench] %d chains x %d lifecycles against %s / %s%n", chains, lifecycles, registry, execution);
        long app = http.expect(201, "POST", registry + "/applications", Map.of("name", "bench-" + UUID.randomUUID()
                .toString().substring(0, 8), "description", "lifecycle benchmark", "owner", "bench")).get("id").asLong();
        List<Chain> all = new ArrayList<>();
        for (int i = 0; i < chains; i++) {
            all.add(Chain.register(http, registry, app));
        }
        Map<Long, Long> consumerOf = new HashMap<>();
        all.forEach(c -> consumerOf.put(c.upstream, c.downstreamStep));
        System.out.printf("[bench] registered %d chains; waiting for the services' read models%n", chains);
        for (Chain c : all) {
            c.awaitKnown(http, List.of(execution, queue));
        }

        Map<Long, Long> haltedAt = new ConcurrentHashMap<>(); // target batch -> HaltJob answered (nanos)
        Map<Long, Long> latencies = new ConcurrentHashMap<>(); // target batch -> HaltJob -> BatchEnqueued (nanos)
        Map<Long, Long> publishedAfter = new ConcurrentHashMap<>(); // target batch -> HaltJob -> relay's send (ms)
        AtomicInteger duplicates = new AtomicInteger(); // BatchEnqueued for a batch whose fan-out was already seen
        AtomicBoolean listening = new AtomicBoolean(true);
        CountDownLatch assigned = new CountDownLatch(1);
        Thread listener = new Thread(() -> listen(kafka, schemaRegistry, consumerOf, haltedAt, latencies, publishedAfter,
                duplicates, listening, assigned));
        listener.start();
        assigned.await(30, TimeUnit.SECONDS);

        ExecutorService pool = Executors.newFixedThreadPool(chains);
        AtomicInteger done = new AtomicInteger();
        mark(windowStart);
        Duration cpuAtStart = cpu();
        long start = System.nanoTime();
        List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
        for (Chain c : all) {
            futures.add(pool.submit(() -> {
                for (int i = 0; i < lifecycles; i++) {
                    long tb = c.runOnce(http, execution, "2024-01-01");
                    haltedAt.put(tb, System.nanoTime());
                    if (done.incrementAndGet() % Math.max(1, chains * lifecycles / 10) == 0) {
                        System.out.printf("[bench] %d/%d lifecycles%n", done.get(), chains * lifecycles);
                    }
                }
                return null;
            }));
        }
        for (var f : futures) {
            try {
                f.get();
            } catch (java.util.concurrent.ExecutionException e) {
                // A refused lifecycle call ends the run: its chain cannot go on, and the figures would be partial.
                System.err.println("[bench] a lifecycle call failed: " + e.getCause());
                pool.shutdownNow();
                listening.set(false);
                System.exit(3);
            }
        }
        // Throughput counts the lifecycles' own time, not the wait below for the last fan-outs to be seen.
        long ran = System.nanoTime() - start;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (latencies.size() < haltedAt.size() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        long elapsed = System.nanoTime() - start;
        Duration cpuInWindow = cpu().minus(cpuAtStart);
        mark(windowEnd);
        listening.set(false);
        listener.join(5_000);
        pool.shutdown();

        List<Long> sorted = new ArrayList<>(latencies.values());
        Collections.sort(sorted);
        int total = chains * lifecycles;
        double lifecyclesPerS = total / (ran / 1e9);
        System.out.printf("[bench] completed lifecycles: %d in %.1f s = %.1f lifecycles/s (last fan-out seen after"
                + " %.1f s)%n", total, ran / 1e9, lifecyclesPerS, elapsed / 1e9);
        System.out.printf("[bench] HaltJob -> BatchEnqueued visible downstream: %d of %d observed, p50 %.1f ms, "
                + "p99 %.1f ms, max %.1f ms%n", sorted.size(), total, pct(sorted, 0.50), pct(sorted, 0.99),
                sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1) / 1e6);
        // Where the slowest fan-outs happened, to tell a stall of one moment (several chains at once) from a slow
        // path, and whether their time went before the event was published or after.
        latencies.entrySet().stream().sorted(Map.Entry.<Long, Long>comparingByValue().reversed()).limit(5)
                .forEach(slow -> System.out.printf(java.util.Locale.ROOT,
                        "[bench] slow fan-out: batch %d, %.1f ms, HaltJob answered at +%.2f s, published %d ms after"
                                + " it%n", slow.getKey(), slow.getValue() / 1e6,
                        (haltedAt.get(slow.getKey()) - start) / 1e9, publishedAfter.get(slow.getKey())));
        // Machine-readable; bench/run.sh adds pgbench's figure and prints the RESULT line. Each lifecycle is eight
        // committed transitions: InitJob, InitStep and HaltStep of three steps, HaltJob.
        System.out.printf(java.util.Locale.ROOT, "METRICS transitions_per_s=%.1f fanout_p50_ms=%.1f fanout_p99_ms=%.1f"
                        + " fanouts=%d/%d duplicates=%d%n", lifecyclesPerS * TRANSITIONS_PER_LIFECYCLE,
                pct(sorted, 0.50), pct(sorted, 0.99), sorted.size(), total, duplicates.get());
        List<Long> initJobs = new ArrayList<>(INIT_JOB_NANOS);
        Collections.sort(initJobs);
        System.out.printf(java.util.Locale.ROOT, "INITJOB calls=%d p50_ms=%.1f p99_ms=%.1f%n", initJobs.size(),
                pct(initJobs, 0.50), pct(initJobs, 0.99));
        if (sorted.size() < total) {
            System.out.println("[bench] WARNING: some BatchEnqueued events were not observed within 60 s");
        }
        // The client shares the machine with the stack it drives: bench/run.sh puts its CPU in the window next to
        // the services'. Its whole life (start, registration, the wait for the read models) is printed for scale.
        System.out.printf(java.util.Locale.ROOT, "CPU client_ms=%d client_total_ms=%d%n", cpuInWindow.toMillis(),
                cpu().toMillis());
    }

    /** The CPU time this process has used so far. */
    private static Duration cpu() {
        return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    /** Runs a window mark's command and waits for it; a failed one is reported and the run goes on. */
    private static void mark(String command) throws InterruptedException {
        if (command == null || command.isBlank()) {
            return;
        }
        try {
            int exit = new ProcessBuilder("bash", "-c", command).inheritIO().start().waitFor();
            if (exit != 0) {
                System.out.printf("[bench] window mark exited with %d: %s%n", exit, command);
            }
        } catch (java.io.IOException e) {
            System.out.printf("[bench] window mark could not run (%s): %s%n", e.getMessage(), command);
        }
    }

    /**
     * Follows the batches topic. The poll thread only stamps each record with the moment it arrived and hands it on;
     * another thread decodes it and matches it with its HaltJob. Decoding the first record fetches its schema from
     * the registry, and an event can overtake HaltJob's answer (the match waits for it): neither may hold up the
     * arrival stamps of the records behind, or the client's own cold start would be counted as fan-out latency.
     */
    private static void listen(String kafka, String schemaRegistry, Map<Long, Long> consumerOf, Map<Long, Long> haltedAt,
                               Map<Long, Long> latencies, Map<Long, Long> publishedAfter, AtomicInteger duplicates,
                               AtomicBoolean listening, CountDownLatch assigned) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        BlockingQueue<Arrival> arrivals = new LinkedBlockingQueue<>();
        Thread matcher = new Thread(() -> match(schemaRegistry, arrivals, consumerOf, haltedAt, latencies, publishedAfter, duplicates),
                "bench-matcher");
        matcher.start();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(Topics.QUEUE_BATCHES));
            while (consumer.assignment().isEmpty()) {
                consumer.poll(Duration.ofMillis(100));
            }
            assigned.countDown();
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

    /** A record of the batches topic and when the poll that fetched it returned (nanos, and wall clock in ms). */
    private record Arrival(ConsumerRecord<String, byte[]> record, long nanos, long wallMs) {
    }

    private static void match(String schemaRegistry, BlockingQueue<Arrival> arrivals, Map<Long, Long> consumerOf, Map<Long, Long> haltedAt,
                              Map<Long, Long> latencies, Map<Long, Long> publishedAfter, AtomicInteger duplicates) {
        try (EventDeserializer decoder = EventDeserializer.forRegistry(schemaRegistry)) {
            while (!Thread.currentThread().isInterrupted()) {
                Arrival a;
                try {
                    a = arrivals.take();
                } catch (InterruptedException e) {
                    return;
                }
                ConsumerRecord<String, byte[]> r = a.record();
                SpecificRecord value = decoder.deserialize(r.topic(), r.headers(), r.value());
                if (!(value instanceof BatchEnqueued e) || e.getSourceProcessId() == null
                        || !consumerOf.containsKey(e.getSourceProcessId())) {
                    continue;
                }
                if (latencies.containsKey(e.getSourceBatchId())) {
                    // Each chain's batch has one consumer: a second record is a duplicate fan-out (or a re-sent
                    // event), which downstream consumers would have to drop.
                    duplicates.incrementAndGet();
                    continue;
                }
                // HaltJob's answer and the event race; wait briefly for the answer's timestamp.
                Long halted = null;
                for (int i = 0; i < 200 && (halted = haltedAt.get(e.getSourceBatchId())) == null; i++) {
                    sleep(5);
                }
                if (halted != null) {
                    long latency = Math.max(0, a.nanos() - halted);
                    latencies.put(e.getSourceBatchId(), latency);
                    // The record's timestamp is when queue-service's relay sent it: how much of the latency came
                    // before the event reached the broker (same machine, same clock).
                    publishedAfter.put(e.getSourceBatchId(),
                            latency / 1_000_000 - (a.wallMs() - r.timestamp()));
                }
            }
        }
    }

    private static final int TRANSITIONS_PER_LIFECYCLE = 8;
    /** How long each InitJob took to answer: the call whose cost must not grow with the database's history. */
    private static final java.util.Queue<Long> INIT_JOB_NANOS = new java.util.concurrent.ConcurrentLinkedQueue<>();

    private static double pct(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int index = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index))) / 1e6;
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value pairs, got " + args[i]);
            }
            opts.put(args[i].substring(2), args[i + 1]);
        }
        return opts;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** An upstream job with three steps and a downstream job with one step enqueued by it. */
    private record Chain(long upstream, List<Long> steps, long downstream, long downstreamStep) {

        static Chain register(Http http, String registry, long app) {
            long up = process(http, registry, app, null, List.of());
            List<Long> steps = List.of(process(http, registry, app, up, List.of()),
                    process(http, registry, app, up, List.of()), process(http, registry, app, up, List.of()));
            link(http, registry, up, steps.get(0));
            link(http, registry, steps.get(0), steps.get(1));
            link(http, registry, steps.get(1), steps.get(2));
            link(http, registry, steps.get(2), up);
            long down = process(http, registry, app, null, List.of());
            long downStep = process(http, registry, app, down, List.of(up));
            link(http, registry, down, downStep);
            link(http, registry, downStep, down);
            return new Chain(up, steps, down, downStep);
        }

        /** Waits until each service's read model has the chain's last changes (the final links). */
        void awaitKnown(Http http, List<String> services) throws InterruptedException {
            for (String service : services) {
                for (long id : List.of(steps.get(2), downstreamStep)) {
                    boolean known = false;
                    for (int i = 0; i < 600 && !known; i++) {
                        Http.Reply r = http.send("GET", service + "/process-definitions/" + id, null);
                        known = r.status() == 200 && r.body().get("nextProcessIds").size() > 0;
                        if (!known) {
                            Thread.sleep(100);
                        }
                    }
                    if (!known) {
                        throw new IllegalStateException(service + " never learned process " + id);
                    }
                }
            }
        }

        long runOnce(Http http, String execution, String marking) {
            long asked = System.nanoTime();
            JsonNode init = http.expect(200, "POST", execution + "/jobs/" + upstream + "/init", Map.of("maxBatch", 1));
            INIT_JOB_NANOS.add(System.nanoTime() - asked);
            for (long step : steps) {
                http.expect(200, "POST", execution + "/steps/" + step + "/init", null);
                http.expect(200, "POST", execution + "/steps/" + step + "/halt", null);
            }
            http.expect(200, "POST", execution + "/jobs/" + upstream + "/halt", Map.of("batchMarking", marking));
            return init.get("targetBatchId").asLong();
        }

        private static long process(Http http, String registry, long app, Long parent, List<Long> enqueuers) {
            Map<String, Object> body = new HashMap<>();
            body.put("name", (parent == null ? "bench-job-" : "bench-step-") + UUID.randomUUID().toString().substring(0, 8));
            body.put("description", "benchmark");
            body.put("applicationId", app);
            body.put("processTypeId", parent == null ? 1 : 12);
            body.put("parentProcessId", parent);
            body.put("enqueuingProcessIds", enqueuers);
            return http.expect(201, "POST", registry + "/processes", body).get("id").asLong();
        }

        private static void link(Http http, String registry, long process, long next) {
            http.expect(200, "PATCH", registry + "/processes/" + process, Map.of("nextProcessIds", List.of(next)));
        }
    }
}
