package io.batchyard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.batchyard.events.EventHeader;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.schemas.Topics;
import io.batchyard.schemas.kafka.EventSerializer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Data-aware triggering at scale: many processes in fan-in and fan-out shapes, each consumer with a trigger policy,
 * and a steady stream of {@code BatchEnqueued} events written straight onto {@code batchyard.queue.batches} (Avro
 * through the schema registry, as queue-service writes them).
 *
 * <p>A <b>unit</b> is ten processes: two producers P1 and P2 (parents, never run: their batches are the events this
 * client writes) and four Oozie consumers, each a parent with one step: C1 {@code all} of P1 and P2 (fan-in), C2
 * {@code each} batch of P1 (P1 fans out to C1, C2 and C3), C3 {@code n-of} 1 of P1 and P2, C4 {@code all-with-timeout}
 * of P2 by day (it waits through the run: the /why samples ask about it and C1). The processes are created through
 * registry-service's {@code POST /pipelines/apply}, one application of twenty units per call (a call is one
 * transaction), then named back to their ids by a listing.
 *
 * <p>Load: every hour key (yyyyMMddHH, UTC) of every unit is one batch of P1 and one of P2, i.e. six events, written
 * open loop at {@code --rate} events per second for {@code --duration} seconds. Each of C1, C2 and C3 is due once per
 * unit-hour; C4 never within the run. execution-service's launcher hook ({@code batchyard.trigger.launcher.kind=http})
 * posts every launch to a sink this client serves, which stamps it on arrival; the launch names the event that fired
 * it ({@code eventId}), whose broker acknowledgement is the other stamp: <b>trigger latency</b> is acknowledgement →
 * launch received, both on this client's clock. <b>/why latency</b>: {@code GET /why/{pid}} of a random C1 or C4,
 * {@code --why-rate} per second during the load, answer time.
 *
 * <p>Usage: {@code TriggerBenchmark [--processes 10000] [--rate 1000] [--duration 60] [--sink-port 18099]
 * [--why-rate 20] [--drain 60] [--units-file PATH] [--registry URL] [--execution URL] [--queue URL] [--kafka host:port] [--schema-registry URL]},
 * with a bearer token of roles developer and operator in {@code BATCHYARD_TOKEN}. Prints progress, percentiles and a
 * RESULT line; exits 2 when a launch is missing or duplicated (launches are awaited {@code --drain} seconds after
 * the load). The load starts once execution-service's trigger consumer has no backlog (an earlier run's). With {@code --units-file}, the units registered are
 * written there, and a later run on the same stack with as many processes reuses them with hours of its own.
 */
public final class TriggerBenchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Processes per unit: P1, P2, and four consumers of a parent and a step each. */
    private static final int PER_UNIT = 10;
    // one apply is one transaction, each change through the registry's single-object path: a few seconds each
    private static final int UNITS_PER_APPLICATION = 20;
    /** Events per unit-hour: P1's batch for C1, C2, C3; P2's for C1, C3, C4. */
    private static final int EVENTS_PER_UNIT_HOUR = 6;
    /** Launches due per unit-hour: C1, C2, C3 (C4 waits for its day). */
    private static final int LAUNCHES_PER_UNIT_HOUR = 3;
    /** execution-service's trigger consumer group: its lag on the batches topic is the backlog of triggering. */
    static final String TRIGGER_GROUP = "execution-service-triggers";
    /** The first hour key of the first run on new processes. */
    private static final Instant FIRST_HOUR = Instant.parse("2026-01-01T00:00:00Z");
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("yyyyMMddHH").withZone(ZoneOffset.UTC);

    /** A unit's ids: the producers, each consumer's parent and its consuming step. */
    record Unit(long p1, long p2, long[] consumers, long[] steps) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = Bench.options(args);
        int processes = Integer.parseInt(opts.getOrDefault("processes", "10000"));
        double rate = Double.parseDouble(opts.getOrDefault("rate", "1000"));
        int duration = Integer.parseInt(opts.getOrDefault("duration", "60"));
        int sinkPort = Integer.parseInt(opts.getOrDefault("sink-port", "18099"));
        double whyRate = Double.parseDouble(opts.getOrDefault("why-rate", "20"));
        long drain = Long.parseLong(opts.getOrDefault("drain", "60"));
        Bench.Endpoints endpoints = Bench.Endpoints.of(opts);
        Http http = new Http();
        int units = Math.max(1, processes / PER_UNIT);

        Path unitsFile = opts.containsKey("units-file") ? Path.of(opts.get("units-file")) : null;

        Launches launches = new Launches();
        HttpServer sink = sink(sinkPort, launches);
        try {
            Optional<Registered> kept = reusable(http, endpoints.execution(), unitsFile, units);
            Registered registered;
            if (kept.isPresent()) {
                registered = kept.get();
                System.out.printf("[trigger] reusing the %d processes (%d units) of an earlier run on this stack (%s);"
                        + " its hours start at %s%n", units * PER_UNIT, units, unitsFile, registered.firstHour());
            } else {
                long t = System.nanoTime();
                List<Unit> all = register(http, endpoints.registry(), units);
                System.out.printf(Locale.ROOT, "[trigger] registered %d processes (%d units) in %.1f s%n",
                        all.size() * PER_UNIT, all.size(), (System.nanoTime() - t) / 1e9);
                t = System.nanoTime();
                setPolicies(http, endpoints.execution(), all);
                System.out.printf(Locale.ROOT, "[trigger] trigger policies of %d consumers set in %.1f s%n",
                        all.size() * 4, (System.nanoTime() - t) / 1e9);
                registered = new Registered(FIRST_HOUR, all);
            }
            int unitHours = unitHours(rate, duration);
            // the hours this run fills are spent: a later run on the same processes starts after them
            Instant nextHour = registered.firstHour().plusSeconds(3600L * ((unitHours + units - 1) / units + 1));
            if (unitsFile != null) {
                JSON.writeValue(unitsFile.toFile(), new UnitsFile(nextHour.toString(), registered.units()));
            }
            awaitCaughtUp(endpoints.kafka());
            boolean whole = load(http, endpoints, registered, rate, duration, whyRate, drain, launches);
            System.exit(whole ? 0 : 2);
        } finally {
            sink.stop(0);
        }
    }

    /** The unit-hours a load of {@code rate} events per second for {@code duration} seconds fills. */
    private static int unitHours(double rate, int duration) {
        return (int) Math.round(rate * duration) / EVENTS_PER_UNIT_HOUR;
    }

    /** The units of a run and the first hour key its load marks batches with. */
    record Registered(Instant firstHour, List<Unit> units) {
    }

    /** What {@code --units-file} keeps: the units, and the first hour no run has used. */
    record UnitsFile(String nextHour, List<Unit> units) {
    }

    /**
     * The units an earlier run on this stack registered, when {@code file} names them, they are as many as asked for,
     * and execution-service still knows the first consumer's trigger (a stack started afresh does not): registering
     * and deploying 10,000 processes takes far longer than the measured minute, and the measure does not depend on
     * the processes being new. Their hours are new: the file says where the earlier runs' hours ended.
     */
    private static Optional<Registered> reusable(Http http, String execution, Path file, int units) {
        if (file == null || !Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            UnitsFile saved = JSON.readValue(file.toFile(), UnitsFile.class);
            Registered kept = new Registered(Instant.parse(saved.nextHour()), saved.units());
            if (kept.units().size() != units) {
                return Optional.empty();
            }
            Http.Reply trigger = http.send("GET", execution + "/processes/" + kept.units().get(0).consumers()[0]
                    + "/trigger", null);
            return trigger.status() == 200 && "all".equals(trigger.body().path("policy").asText())
                    ? Optional.of(kept) : Optional.empty();
        } catch (IOException | RuntimeException unreadable) {
            System.out.printf("[trigger] %s names no units of this stack (%s): registering anew%n", file, unreadable);
            return Optional.empty();
        }
    }

    // ---- registration ----

    /** Every unit, through one apply per application of twenty units, two applications at a time. */
    private static List<Unit> register(Http http, String registry, int units) throws Exception {
        String run = UUID.randomUUID().toString().substring(0, 6);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<List<Unit>>> applied = new ArrayList<>();
        for (int from = 0; from < units; from += UNITS_PER_APPLICATION) {
            int count = Math.min(UNITS_PER_APPLICATION, units - from);
            String app = "bench-trg-" + run + "-" + (from / UNITS_PER_APPLICATION);
            applied.add(pool.submit(() -> application(http, registry, app, count)));
        }
        List<Unit> all = new ArrayList<>();
        for (Future<List<Unit>> f : applied) {
            all.addAll(f.get());
            System.out.printf("[trigger] registering: %d of %d units%n", all.size(), units);
        }
        pool.shutdown();
        return all;
    }

    private static List<Unit> application(Http http, String registry, String app, int units) {
        List<Map<String, Object>> changes = new ArrayList<>();
        List<Map<String, Object>> links = new ArrayList<>();
        for (int u = 0; u < units; u++) {
            String p1 = "p1-" + u;
            String p2 = "p2-" + u;
            changes.add(create(p1, null, 1, 1));
            changes.add(create(p2, null, 1, 1));
            String[][] inputs = {{p1, p2}, {p1}, {p1, p2}, {p2}};
            for (int c = 0; c < 4; c++) {
                String consumer = "c" + (c + 1) + "-" + u;
                String step = consumer + "-in";
                changes.add(create(consumer, null, 1, 1));
                changes.add(create(consumer, step, 12, null));
                links.add(update(consumer, null, 1, 1, List.of(step), List.of()));
                links.add(update(consumer, step, 12, null, List.of(consumer), List.of(inputs[c])));
            }
        }
        changes.addAll(links);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("application", Map.of("name", app, "description", "triggering benchmark", "owner", "bench"));
        Map<String, Object> expected = new HashMap<>();
        expected.put("applicationExists", false);
        expected.put("processes", List.of());
        body.put("expected", expected);
        body.put("changes", changes);
        Http.Reply applied = http.send("POST", registry + "/pipelines/apply", body, Duration.ofMinutes(5));
        if (applied.status() != 200) {
            throw new IllegalStateException("POST /pipelines/apply of " + app + " -> " + applied.status() + " "
                    + applied.body());
        }
        long applicationId = applied.body().get("applicationId").asLong();
        Map<String, Long> ids = new HashMap<>();
        for (int offset = 0; ; offset += 500) {
            JsonNode page = http.expect(200, "GET", registry + "/processes?applicationId=" + applicationId
                    + "&limit=500&offset=" + offset, null);
            page.get("items").forEach(p -> ids.put(p.get("name").asText(), p.get("id").asLong()));
            if (page.get("items").size() < 500) {
                break;
            }
        }
        List<Unit> out = new ArrayList<>();
        for (int u = 0; u < units; u++) {
            long[] consumers = new long[4];
            long[] steps = new long[4];
            for (int c = 0; c < 4; c++) {
                consumers[c] = id(ids, "c" + (c + 1) + "-" + u);
                steps[c] = id(ids, "c" + (c + 1) + "-" + u + "-in");
            }
            out.add(new Unit(id(ids, "p1-" + u), id(ids, "p2-" + u), consumers, steps));
        }
        return out;
    }

    private static long id(Map<String, Long> ids, String name) {
        Long id = ids.get(name);
        if (id == null) {
            throw new IllegalStateException("the registry lists no process named " + name);
        }
        return id;
    }

    private static Map<String, Object> create(String parent, String step, int processType, Integer workflowType) {
        Map<String, Object> process = new HashMap<>();
        process.put("description", "triggering benchmark");
        process.put("processTypeId", processType);
        process.put("workflowTypeId", workflowType);
        Map<String, Object> change = new HashMap<>();
        change.put("kind", "CREATE_PROCESS");
        change.put("parent", parent);
        change.put("step", step);
        change.put("process", process);
        return change;
    }

    private static Map<String, Object> update(String parent, String step, int processType, Integer workflowType,
                                              List<String> next, List<String> enqueuing) {
        Map<String, Object> change = create(parent, step, processType, workflowType);
        change.put("kind", "UPDATE_PROCESS");
        @SuppressWarnings("unchecked")
        Map<String, Object> process = (Map<String, Object>) change.get("process");
        process.put("next", next);
        process.put("enqueuing", enqueuing.stream().map(p -> Map.of("process", p)).toList());
        return change;
    }

    /**
     * Each consumer's trigger and deployment, eight at a time; a refusal is tried again for a minute, since
     * execution-service learns the processes (and which producers feed each step) from the registry's topic a little
     * after the apply.
     */
    private static void setPolicies(Http http, String execution, List<Unit> units) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        AtomicInteger done = new AtomicInteger();
        List<Future<Long>> calls = new ArrayList<>();
        for (Unit u : units) {
            List<Map<String, Object>> settings = List.of(
                    Map.of("policy", "all", "inputs", List.of(u.p1(), u.p2())),
                    Map.of("policy", "each", "inputs", List.of(u.p1())),
                    Map.of("policy", "n-of", "inputs", List.of(u.p1(), u.p2()), "n", 1),
                    Map.of("policy", "all-with-timeout", "inputs", List.of(u.p2()), "timeout", "PT2H",
                            "grain", "day", "zone", "UTC"));
            for (int c = 0; c < 4; c++) {
                long consumer = u.consumers()[c];
                Map<String, Object> body = settings.get(c);
                calls.add(pool.submit(() -> {
                    putUntilAccepted(http, execution + "/processes/" + consumer + "/trigger", body);
                    int n = done.incrementAndGet();
                    if (n % 1000 == 0) {
                        System.out.printf("[trigger] policies: %d of %d consumers%n", n, units.size() * 4);
                    }
                    // a parent is started by its data only once deployed (Oozie: the no-op process-type-1.sh)
                    return http.expect(201, "POST", execution + "/processes/" + consumer + "/deployments", null)
                            .get("deploymentId").asLong();
                }));
            }
        }
        List<Long> deployments = new ArrayList<>();
        for (Future<Long> f : calls) {
            deployments.add(f.get());
        }
        pool.shutdown();
        System.out.printf("[trigger] waiting for %d deployments%n", deployments.size());
        Bench.awaitDeployed(http, execution, deployments);
    }

    private static void putUntilAccepted(Http http, String url, Object body) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            Http.Reply r = http.send("PUT", url, body);
            if (r.status() / 100 == 2) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("PUT " + url + " " + body + " -> " + r.status() + " " + r.body());
            }
            Thread.sleep(250);
        }
    }

    // ---- load and measures ----

    /** The launches the sink received, by the event that fired each. */
    static final class Launches {
        final Map<String, Long> ackedAt = new ConcurrentHashMap<>();
        final Queue<Long> latencies = new ConcurrentLinkedQueue<>();
        final Map<String, AtomicInteger> perBucket = new ConcurrentHashMap<>();
        final AtomicInteger received = new AtomicInteger();
        final AtomicInteger unmatched = new AtomicInteger();
        final AtomicInteger duplicates = new AtomicInteger();

        void received(JsonNode launch, long nanos) {
            received.incrementAndGet();
            String key = launch.path("processId").asLong() + "@" + launch.path("bucket").asText();
            if (perBucket.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet() > 1) {
                duplicates.incrementAndGet();
            }
            Long acked = launch.hasNonNull("eventId") ? ackedAt.get(launch.get("eventId").asText()) : null;
            if (acked == null) {
                unmatched.incrementAndGet();
                return;
            }
            latencies.add(Math.max(0, nanos - acked));
        }
    }

    /** The launcher hook's orchestrator: stamps each launch on arrival and answers 200 at once. */
    private static HttpServer sink(int port, Launches launches) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 256);
        server.createContext("/", exchange -> {
            long arrived = System.nanoTime();
            try (InputStream in = exchange.getRequestBody()) {
                launches.received(JSON.readTree(in.readAllBytes()), arrived);
            } catch (IOException | RuntimeException e) {
                launches.unmatched.incrementAndGet();
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
        System.out.printf("[trigger] launch sink on http://127.0.0.1:%d/launch%n", port);
        return server;
    }

    /**
     * Waits until execution-service's trigger consumer has applied every event on the batches topic: an earlier run's
     * backlog would otherwise be measured as this run's latency. Prints the backlog as it drains.
     */
    private static void awaitCaughtUp(String kafka) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka))) {
            long printed = 0;
            while (true) {
                long lag = lag(admin);
                // committed offsets trail what was applied by the consumer's commit interval: a few events are not
                // a backlog
                if (lag < 50) {
                    return;
                }
                if (System.nanoTime() - printed > TimeUnit.SECONDS.toNanos(10)) {
                    System.out.printf("[trigger] waiting for execution-service's trigger consumer: %d events behind%n",
                            lag);
                    printed = System.nanoTime();
                }
                Thread.sleep(2000);
            }
        }
    }

    /** How many events of the batches topic the trigger consumer group has not committed. */
    private static long lag(Admin admin) throws Exception {
        Map<TopicPartition, Long> committed = committed(admin);
        return ends(admin).entrySet().stream()
                .mapToLong(end -> end.getValue() - committed.getOrDefault(end.getKey(), 0L)).sum();
    }

    /** The end offset of each partition of the batches topic. */
    static Map<TopicPartition, Long> ends(Admin admin) throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        admin.describeTopics(List.of(Topics.QUEUE_BATCHES)).allTopicNames().get().get(Topics.QUEUE_BATCHES)
                .partitions().forEach(p -> latest.put(new TopicPartition(Topics.QUEUE_BATCHES, p.partition()),
                        OffsetSpec.latest()));
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(latest).all().get().forEach((partition, info) -> ends.put(partition, info.offset()));
        return ends;
    }

    /** The trigger consumer group's committed offset of each partition it has one for. */
    static Map<TopicPartition, Long> committed(Admin admin) throws Exception {
        Map<TopicPartition, Long> committed = new HashMap<>();
        admin.listConsumerGroupOffsets(TRIGGER_GROUP).partitionsToOffsetAndMetadata().get()
                .forEach((partition, at) -> committed.put(partition, at == null ? 0L : at.offset()));
        return committed;
    }

    private static boolean load(Http http, Bench.Endpoints endpoints, Registered registered, double rate, int duration,
                                double whyRate, long drain, Launches launches) throws Exception {
        List<Unit> units = registered.units();
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, endpoints.kafka());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 2);
        int unitHours = unitHours(rate, duration);
        long expected = (long) unitHours * LAUNCHES_PER_UNIT_HOUR;
        AtomicLong acked = new AtomicLong();
        AtomicInteger failedSends = new AtomicInteger();
        Queue<Long> why = new ConcurrentLinkedQueue<>();
        AtomicInteger whyErrors = new AtomicInteger();
        // ids no earlier run used: queue-service never sees these batches, but execution-service records them
        long batchIds = System.currentTimeMillis() * 10;
        long queueIds = batchIds;
        Instant firstHour = registered.firstHour();
        System.out.printf(Locale.ROOT, "[trigger] load: %d events at %.0f/s (%d unit-hours, %d launches due), /why %.0f/s%n",
                unitHours * EVENTS_PER_UNIT_HOUR, rate, unitHours, expected, whyRate);
        ExecutorService whyCallers = Executors.newFixedThreadPool(4);
        try (KafkaProducer<String, SpecificRecord> producer = new KafkaProducer<>(props, new StringSerializer(),
                EventSerializer.forRegistry(endpoints.schemaRegistry()))) {
            // the first write of a type registers its schema: not part of the measured load
            producer.send(new ProducerRecord<>(Topics.QUEUE_BATCHES, "0", event(0, 0, 0L, 0,
                    UUID.randomUUID().toString(), null))).get();
            long interval = (long) (1e9 / rate);
            long whyInterval = whyRate > 0 ? (long) (1e9 / whyRate) : Long.MAX_VALUE;
            long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            long nextWhy = t0;
            long nextProgress = t0 + TimeUnit.SECONDS.toNanos(5);
            int k = 0;
            for (int h = 0; h < unitHours; h++) {
                Unit u = units.get(h % units.size());
                String marking = HOUR.format(firstHour.plusSeconds(3600L * (h / units.size())));
                long b1 = ++batchIds;
                long b2 = ++batchIds;
                long[][] sends = {{u.p1(), b1, u.steps()[0]}, {u.p1(), b1, u.steps()[1]}, {u.p1(), b1, u.steps()[2]},
                    {u.p2(), b2, u.steps()[0]}, {u.p2(), b2, u.steps()[2]}, {u.p2(), b2, u.steps()[3]}};
                for (long[] s : sends) {
                    long due = t0 + k++ * interval;
                    long wait;
                    while ((wait = due - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    String eventId = UUID.randomUUID().toString();
                    BatchEnqueued e = event(s[1], ++queueIds, s[0], s[2], eventId, marking);
                    producer.send(new ProducerRecord<>(Topics.QUEUE_BATCHES, String.valueOf(s[2]), e), (m, ex) -> {
                        if (ex != null) {
                            failedSends.incrementAndGet();
                        } else {
                            launches.ackedAt.put(eventId, System.nanoTime());
                            acked.incrementAndGet();
                        }
                    });
                    long now = System.nanoTime();
                    if (now >= nextWhy) {
                        nextWhy += whyInterval;
                        Unit asked = units.get(ThreadLocalRandom.current().nextInt(units.size()));
                        long pid = ThreadLocalRandom.current().nextBoolean() ? asked.consumers()[0]
                                : asked.consumers()[3];
                        whyCallers.submit(() -> askWhy(http, endpoints.execution(), pid, why, whyErrors));
                    }
                    if (now >= nextProgress) {
                        nextProgress += TimeUnit.SECONDS.toNanos(5);
                        progress(now - t0, k, acked.get(), launches, why);
                    }
                }
            }
            producer.flush();
            long loadEnded = System.nanoTime();
            double eventsPerSecond = k / ((loadEnded - t0) / 1e9);
            whyCallers.shutdown();
            whyCallers.awaitTermination(30, TimeUnit.SECONDS);
            long deadline = loadEnded + TimeUnit.SECONDS.toNanos(drain);
            while (launches.received.get() < expected && System.nanoTime() < deadline) {
                Thread.sleep(1000);
                progress(System.nanoTime() - t0, k, acked.get(), launches, why);
            }
            // a little longer, so that a duplicate right behind the last launch is counted too
            Thread.sleep(3000);
            return report(units.size() * PER_UNIT, eventsPerSecond, expected, launches, why, whyErrors.get(),
                    failedSends.get());
        }
    }

    private static BatchEnqueued event(long sourceBatch, long queueId, long source, long consumer, String eventId,
                                       String marking) {
        EventHeader header = EventHeader.newBuilder().setEventId(eventId)
                .setOccurredAt(Instant.now()).setProducer("bench").setSchemaVersion(1).setInstanceExecId(null)
                .setCorrelationId(null).setActor(null).build();
        return BatchEnqueued.newBuilder().setHeader(header).setQueueId(queueId).setSourceBatchId(sourceBatch)
                .setSourceProcessId(source == 0 ? null : source).setConsumerProcessId(consumer)
                .setBatchMarking(marking).build();
    }

    private static void askWhy(Http http, String execution, long pid, Queue<Long> why, AtomicInteger errors) {
        long asked = System.nanoTime();
        try {
            Http.Reply r = http.send("GET", execution + "/why/" + pid, null);
            if (r.status() != 200) {
                errors.incrementAndGet();
                return;
            }
            why.add(System.nanoTime() - asked);
        } catch (RuntimeException e) {
            errors.incrementAndGet();
        }
    }

    private static void progress(long elapsed, int sent, long acked, Launches launches, Queue<Long> why) {
        List<Long> lat = sorted(launches.latencies);
        List<Long> w = sorted(why);
        System.out.printf(Locale.ROOT, "[trigger] %5.1f s: %d events sent, %d acknowledged; %d launches received"
                        + " (trigger p50 %.0f ms, p99 %.0f ms); %d /why answered (p99 %.0f ms)%n", elapsed / 1e9, sent,
                acked, launches.received.get(), Bench.pct(lat, 0.5), Bench.pct(lat, 0.99), w.size(),
                Bench.pct(w, 0.99));
    }

    private static boolean report(int processes, double eventsPerSecond, long expected, Launches launches,
                                  Queue<Long> why, int whyErrors, int failedSends) {
        List<Long> lat = sorted(launches.latencies);
        List<Long> w = sorted(why);
        System.out.printf(Locale.ROOT, "[trigger] trigger latency, event acknowledged -> launch received: %d of %d"
                        + " launches, p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms; %d duplicated, %d naming no"
                        + " event of this run%n", launches.received.get(), expected, Bench.pct(lat, 0.5),
                Bench.pct(lat, 0.9), Bench.pct(lat, 0.99), Bench.pct(lat, 1.0), launches.duplicates.get(),
                launches.unmatched.get());
        System.out.printf(Locale.ROOT, "[trigger] /why: %d answered, p50 %.1f ms, p99 %.1f ms, max %.1f ms; %d failed%n",
                w.size(), Bench.pct(w, 0.5), Bench.pct(w, 0.99), Bench.pct(w, 1.0), whyErrors);
        System.out.printf(Locale.ROOT, "RESULT processes=%d events_per_s=%.0f trigger_p50_ms=%.1f trigger_p99_ms=%.1f"
                        + " why_p99_ms=%.1f launches=%d/%d duplicates=%d failed_sends=%d why_failed=%d%n", processes,
                eventsPerSecond, Bench.pct(lat, 0.5), Bench.pct(lat, 0.99), Bench.pct(w, 0.99),
                launches.received.get(), expected, launches.duplicates.get(), failedSends, whyErrors);
        boolean whole = launches.received.get() == expected && launches.duplicates.get() == 0 && failedSends == 0;
        if (!whole) {
            System.out.println("[trigger] FAILED: launches missing or duplicated, or events not written");
        }
        return whole;
    }

    private static List<Long> sorted(Collection<Long> values) {
        List<Long> list = new ArrayList<>(values);
        Collections.sort(list);
        return list;
    }
}
