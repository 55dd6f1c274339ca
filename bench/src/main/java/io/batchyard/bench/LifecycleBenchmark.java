package io.batchyard.bench;

import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.schemas.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.specific.SpecificRecord;

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
        Map<String, String> opts = Bench.options(args);
        int chains = Integer.parseInt(opts.getOrDefault("chains", "8"));
        int lifecycles = Integer.parseInt(opts.getOrDefault("lifecycles", "25"));
        Bench.Endpoints endpoints = Bench.Endpoints.of(opts);
        String registry = endpoints.registry();
        String execution = endpoints.execution();
        String queue = endpoints.queue();
        String windowStart = opts.get("window-start");
        String windowEnd = opts.get("window-end");
        Http http = new Http();

        System.out.printf("[bench] %d chains x %d lifecycles against %s / %s%n", chains, lifecycles, registry, execution);
        long app = Bench.application(http, registry, "lifecycle benchmark");
        List<Chain> all = new ArrayList<>();
        for (int i = 0; i < chains; i++) {
            all.add(Chain.register(http, registry, app));
        }
        Map<Long, Long> consumerOf = new HashMap<>();
        all.forEach(c -> consumerOf.put(c.upstream.parent(), c.downstreamStep));
        System.out.printf("[bench] registered %d chains; waiting for the services' read models%n", chains);
        for (Chain c : all) {
            c.awaitKnown(http, List.of(execution, queue));
        }

        Map<Long, Long> haltedAt = new ConcurrentHashMap<>(); // target batch -> HaltJob answered (nanos)
        Map<Long, Long> latencies = new ConcurrentHashMap<>(); // target batch -> HaltJob -> BatchEnqueued (nanos)
        Map<Long, Long> publishedAfter = new ConcurrentHashMap<>(); // target batch -> HaltJob -> relay's send (ms)
        AtomicInteger duplicates = new AtomicInteger(); // BatchEnqueued for a batch whose fan-out was already seen
        EventTap tap = EventTap.start(endpoints.kafka(), endpoints.schemaRegistry(), List.of(Topics.QUEUE_BATCHES),
                (event, arrival) -> match(event, arrival, consumerOf, haltedAt, latencies, publishedAfter, duplicates));

        ExecutorService pool = Executors.newFixedThreadPool(chains);
        AtomicInteger done = new AtomicInteger();
        Bench.mark(windowStart);
        Duration cpuAtStart = Bench.cpu();
        long start = System.nanoTime();
        List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
        for (Chain c : all) {
            futures.add(pool.submit(() -> {
                for (int i = 0; i < lifecycles; i++) {
                    long tb = c.upstream.runOnce(http, execution, batch -> "2024-01-01", INIT_JOB_NANOS);
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
                tap.close();
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
        Duration cpuInWindow = Bench.cpu().minus(cpuAtStart);
        Bench.mark(windowEnd);
        tap.close();
        pool.shutdown();

        List<Long> sorted = new ArrayList<>(latencies.values());
        Collections.sort(sorted);
        int total = chains * lifecycles;
        double lifecyclesPerS = total / (ran / 1e9);
        System.out.printf("[bench] completed lifecycles: %d in %.1f s = %.1f lifecycles/s (last fan-out seen after"
                + " %.1f s)%n", total, ran / 1e9, lifecyclesPerS, elapsed / 1e9);
        System.out.printf("[bench] HaltJob -> BatchEnqueued visible downstream: %d of %d observed, p50 %.1f ms, "
                + "p99 %.1f ms, max %.1f ms%n", sorted.size(), total, Bench.pct(sorted, 0.50), Bench.pct(sorted, 0.99),
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
                        + " fanouts=%d/%d duplicates=%d%n", lifecyclesPerS * UpstreamJob.TRANSITIONS_PER_LIFECYCLE,
                Bench.pct(sorted, 0.50), Bench.pct(sorted, 0.99), sorted.size(), total, duplicates.get());
        List<Long> initJobs = new ArrayList<>(INIT_JOB_NANOS);
        Collections.sort(initJobs);
        System.out.printf(java.util.Locale.ROOT, "INITJOB calls=%d p50_ms=%.1f p99_ms=%.1f%n", initJobs.size(),
                Bench.pct(initJobs, 0.50), Bench.pct(initJobs, 0.99));
        if (sorted.size() < total) {
            System.out.println("[bench] WARNING: some BatchEnqueued events were not observed within 60 s");
        }
        // The client shares the machine with the stack it drives: bench/run.sh puts its CPU in the window next to
        // the services'. Its whole life (start, registration, the wait for the read models) is printed for scale.
        System.out.printf(java.util.Locale.ROOT, "CPU client_ms=%d client_total_ms=%d%n", cpuInWindow.toMillis(),
                Bench.cpu().toMillis());
    }

    /**
     * Matches a fan-out with its HaltJob. Each chain's batch has one consumer: a second record for it is a duplicate
     * fan-out (or a re-sent event), which downstream consumers would have to drop.
     */
    private static void match(SpecificRecord event, EventTap.Arrival a, Map<Long, Long> consumerOf,
                              Map<Long, Long> haltedAt, Map<Long, Long> latencies, Map<Long, Long> publishedAfter,
                              AtomicInteger duplicates) {
        if (!(event instanceof BatchEnqueued e) || e.getSourceProcessId() == null
                || !consumerOf.containsKey(e.getSourceProcessId())) {
            return;
        }
        if (latencies.containsKey(e.getSourceBatchId())) {
            duplicates.incrementAndGet();
            return;
        }
        Long halted = Bench.awaitStamp(haltedAt, e.getSourceBatchId());
        if (halted != null) {
            long latency = Math.max(0, a.nanos() - halted);
            latencies.put(e.getSourceBatchId(), latency);
            // The record's timestamp is when queue-service's relay sent it: how much of the latency came before the
            // event reached the broker (same machine, same clock).
            publishedAfter.put(e.getSourceBatchId(), latency / 1_000_000 - (a.wallMs() - a.record().timestamp()));
        }
    }

    /** How long each InitJob took to answer: the call whose cost must not grow with the database's history. */
    private static final java.util.Queue<Long> INIT_JOB_NANOS = new java.util.concurrent.ConcurrentLinkedQueue<>();

    /** An upstream job and a downstream job with one step enqueued by it. */
    private record Chain(UpstreamJob upstream, long downstream, long downstreamStep) {

        static Chain register(Http http, String registry, long app) {
            UpstreamJob up = UpstreamJob.register(http, registry, app);
            long down = Bench.process(http, registry, app, 1, null, null, List.of());
            long downStep = Bench.process(http, registry, app, 12, null, down, List.of(up.parent()));
            Bench.link(http, registry, down, downStep);
            Bench.link(http, registry, downStep, down);
            return new Chain(up, down, downStep);
        }

        /** Waits until each service's read model has the chain's last changes (the final links). */
        void awaitKnown(Http http, List<String> services) throws InterruptedException {
            Bench.awaitLinked(http, services, List.of(upstream.lastStep(), downstreamStep));
        }
    }
}
