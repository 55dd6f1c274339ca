package io.batchyard.bench;

import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.schemas.Topics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.avro.specific.SpecificRecord;

/**
 * Fan-out and triggering latency at a fixed offered load, open loop. Each chain is an upstream job A driven by the
 * client (three steps, as in {@link LifecycleBenchmark}) and a stand-alone job B (workflow type 2, one step running
 * {@code stamp.sh}, with a run policy, the trigger policy on-batch, deployed) whose step consumes A's batches, so that
 * the runner starts B by itself when A's batch arrives.
 *
 * <p>Lifecycles of A start at fixed times, one every 1/R s for D s, whatever the answers take: a slow answer does not
 * lower the offered load, as it would in a closed loop. Each start takes a free chain from a pool; a chain is busy
 * from its start until A's HaltJob has answered and B's triggered run has ended (a parent never runs twice at once,
 * and B's next trigger is never queued behind its previous run). A start that finds no free chain is counted, not
 * delayed. Measured per lifecycle, from HaltJob(A)'s answer: <b>fan-out</b>, until the {@code BatchEnqueued} of A's
 * batch for B's step is seen on {@code batchyard.queue.batches}; <b>trigger</b>, until B's {@code JobStarted} is seen
 * on {@code batchyard.execution.lifecycle}. A's HaltJob marks its batch {@code lat-<target batch>@2024-01-01}, which
 * B's run claims and names in its JobStarted: that is how a run of B is matched with its lifecycle of A.
 *
 * <p>A warm-up at the same rate comes first and is not counted: the closed-loop run that measures saturation warms
 * the lifecycle path, but not the trigger consumer's and the runner's.
 *
 * <p>Usage: {@code LatencyBenchmark --rate R [--duration 60] [--warmup 10] [--pool N] [--registry URL]
 * [--execution URL] [--queue URL] [--kafka host:port] [--schema-registry URL]}, with a bearer token of roles
 * developer and operator in {@code BATCHYARD_TOKEN}. Prints percentiles and a RESULT line; exits 2 when a fan-out or
 * trigger is missing or duplicated, or a call failed.
 */
public final class LatencyBenchmark {

    private static final String MARKING_PREFIX = "lat-";
    /** How long the drivers wait, after the last start, for the last fan-outs and triggers. */
    private static final long DRAIN_SECONDS = 60;

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = Bench.options(args);
        double rate = Double.parseDouble(opts.getOrDefault("rate", "1"));
        int duration = Integer.parseInt(opts.getOrDefault("duration", "60"));
        // The saturation run before warms the services' lifecycle path, not the triggers' and the runner's.
        int warmup = Integer.parseInt(opts.getOrDefault("warmup", "10"));
        // A chain is held for a lifecycle (eight calls), its fan-out, its trigger and B's run: seconds on a loaded
        // machine. Eight seconds' worth of starts leaves free chains unless the stack falls far behind.
        int poolSize = Integer.parseInt(opts.getOrDefault("pool",
                String.valueOf(Math.max(8, (int) Math.ceil(rate * 8)))));
        Bench.Endpoints endpoints = Bench.Endpoints.of(opts);
        String registry = endpoints.registry();
        String execution = endpoints.execution();
        String queue = endpoints.queue();
        Http http = new Http();

        System.out.printf(Locale.ROOT, "[bench] open loop: %.2f lifecycles/s for %d s, pool of %d chains, against %s%n",
                rate, duration, poolSize, execution);
        long app = Bench.application(http, registry, "latency benchmark");
        List<Chain> chains = new ArrayList<>();
        for (int i = 0; i < poolSize; i++) {
            chains.add(Chain.register(http, registry, app));
        }
        System.out.printf("[bench] registered %d chains; waiting for the services' read models%n", poolSize);
        for (Chain c : chains) {
            c.awaitKnown(http, execution, queue);
        }
        System.out.println("[bench] run policies, triggers (on-batch) and deployments of the downstream jobs");
        List<Long> deployments = new ArrayList<>();
        for (Chain c : chains) {
            deployments.add(c.enableTrigger(http, execution));
        }
        Bench.awaitDeployed(http, execution, deployments);

        Map<Long, Chain> byDownstream = new ConcurrentHashMap<>();
        Map<Long, Chain> byDownstreamStep = new ConcurrentHashMap<>();
        chains.forEach(c -> {
            byDownstream.put(c.downstream, c);
            byDownstreamStep.put(c.downstreamStep, c);
        });
        Queue<Chain> free = new ConcurrentLinkedQueue<>(chains);
        Measures warm = new Measures(byDownstream, byDownstreamStep, free);
        AtomicReference<Measures> current = new AtomicReference<>(warm);
        boolean whole;
        try (EventTap tap = EventTap.start(endpoints.kafka(), endpoints.schemaRegistry(), List.of(Topics.QUEUE_BATCHES,
                Topics.EXECUTION_LIFECYCLE), (event, arrival) -> current.get().on(event, arrival))) {
            if (warmup > 0) {
                System.out.printf("[bench] warm-up (not counted): %d s at the same rate%n", warmup);
                run(http, execution, rate, warmup, warm);
                if (!warm.complete()) {
                    System.out.println("[bench] WARNING: the warm-up's fan-outs or triggers did not all come");
                }
            }
            Measures m = new Measures(byDownstream, byDownstreamStep, free);
            current.set(m);
            run(http, execution, rate, duration, m);
            whole = m.report(rate, poolSize);
        }
        System.exit(whole ? 0 : 2);
    }

    /** Starts lifecycles at their fixed times, then waits for the answers and for the last events. */
    private static void run(Http http, String execution, double rate, int duration, Measures m)
            throws InterruptedException {
        Queue<Chain> free = m.free;
        // Unbounded: a start never waits for a thread, however long earlier answers take.
        ExecutorService callers = Executors.newCachedThreadPool();
        int scheduled = (int) Math.round(rate * duration);
        long interval = (long) (1e9 / rate);
        long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        m.start = t0;
        for (int k = 0; k < scheduled; k++) {
            long due = t0 + k * interval;
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            m.startLag.add(System.nanoTime() - due);
            Chain c = free.poll();
            if (c == null) {
                m.noFreeChain.incrementAndGet();
                continue;
            }
            c.hold();
            callers.submit(() -> {
                try {
                    long batch = c.upstream.runOnce(http, execution, tb -> MARKING_PREFIX + tb + "@2024-01-01",
                            m.initJobNanos);
                    m.halted(batch, System.nanoTime());
                    c.release(free);
                } catch (RuntimeException e) {
                    // The chain stays out of the pool: its parent may still be running.
                    m.failedCalls.incrementAndGet();
                    System.err.println("[bench] a lifecycle call failed: " + e.getMessage());
                }
            });
        }
        callers.shutdown();
        callers.awaitTermination(DRAIN_SECONDS, TimeUnit.SECONDS);
        m.lastHalt = System.nanoTime();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
        while (!m.complete() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        // A little longer, so that a duplicate right behind the last event is counted too.
        Thread.sleep(2_000);
    }

    /** An upstream job A and a stand-alone job B whose step consumes A's batches. */
    private static final class Chain {
        final UpstreamJob upstream;
        final long downstream;
        final long downstreamStep;
        /** What still holds the chain: A's lifecycle and B's triggered run, each released once. */
        private int holds;
        /** B's run that the current lifecycle triggered (its instance exec id), until it ends. */
        private Long downstreamRun;

        private Chain(UpstreamJob upstream, long downstream, long downstreamStep) {
            this.upstream = upstream;
            this.downstream = downstream;
            this.downstreamStep = downstreamStep;
        }

        static Chain register(Http http, String registry, long app) {
            UpstreamJob up = UpstreamJob.register(http, registry, app);
            long down = Bench.process(http, registry, app, 2, 2, null, List.of());
            long step = Bench.process(http, registry, app, 22, null, down, List.of(up.parent()));
            ok(http.send("PUT", registry + "/processes/" + step + "/properties/script",
                    Map.of("configGroup", "script", "value", "stamp.sh")));
            Bench.link(http, registry, down, step);
            Bench.link(http, registry, step, down);
            return new Chain(up, down, step);
        }

        /** Waits until both services know the chain, B's step with its script (which its deployment checks). */
        void awaitKnown(Http http, String execution, String queue) throws InterruptedException {
            Bench.awaitLinked(http, List.of(execution, queue), List.of(upstream.lastStep(), downstreamStep));
            Bench.awaitDefinition(http, execution, downstreamStep, body -> body.toString().contains("stamp.sh"));
        }

        /** B gets a run policy and the on-batch trigger, and is deployed; returns the deployment's id. */
        long enableTrigger(Http http, String execution) {
            ok(http.send("PUT", execution + "/runner/processes/" + downstream, Map.of()));
            ok(http.send("PUT", execution + "/processes/" + downstream + "/trigger", Map.of("policy", "on-batch")));
            return ok(http.send("POST", execution + "/processes/" + downstream + "/deployments", null))
                    .get("deploymentId").asLong();
        }

        synchronized void hold() {
            holds = 2;
            downstreamRun = null;
        }

        synchronized void release(Queue<Chain> free) {
            if (--holds == 0) {
                free.add(this);
            }
        }

        synchronized void downstreamStarted(long run) {
            downstreamRun = run;
        }

        /** B's run ended: releases the chain when it is the run this lifecycle triggered. */
        synchronized boolean downstreamEnded(long run, Queue<Chain> free) {
            if (downstreamRun == null || downstreamRun != run) {
                return false;
            }
            downstreamRun = null;
            release(free);
            return true;
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode ok(Http.Reply reply) {
        if (reply.status() / 100 != 2) {
            throw new IllegalStateException("refused: " + reply.status() + " " + reply.body());
        }
        return reply.body();
    }

    /** What the events and the answers tell, per lifecycle keyed by A's target batch. */
    private static final class Measures {
        final Map<Long, Chain> byDownstream;
        final Map<Long, Chain> byDownstreamStep;
        final Map<Long, Long> haltedAt = new ConcurrentHashMap<>();
        final Map<Long, Long> fanouts = new ConcurrentHashMap<>();
        final Map<Long, Long> triggers = new ConcurrentHashMap<>();
        final Queue<Long> startLag = new ConcurrentLinkedQueue<>();
        final Queue<Long> initJobNanos = new ConcurrentLinkedQueue<>();
        final AtomicInteger noFreeChain = new AtomicInteger();
        final AtomicInteger failedCalls = new AtomicInteger();
        final AtomicInteger duplicateFanouts = new AtomicInteger();
        final AtomicInteger duplicateTriggers = new AtomicInteger();
        final AtomicInteger unmatched = new AtomicInteger();
        final AtomicInteger downstreamFailures = new AtomicInteger();
        final Queue<Chain> free;
        volatile long start;
        volatile long lastHalt;

        Measures(Map<Long, Chain> byDownstream, Map<Long, Chain> byDownstreamStep, Queue<Chain> free) {
            this.byDownstream = byDownstream;
            this.byDownstreamStep = byDownstreamStep;
            this.free = free;
        }

        void halted(long batch, long nanos) {
            haltedAt.put(batch, nanos);
        }

        boolean complete() {
            int halted = haltedAt.size();
            return fanouts.size() >= halted && triggers.size() >= halted;
        }

        void on(SpecificRecord event, EventTap.Arrival a) {
            if (event instanceof BatchEnqueued e && byDownstreamStep.containsKey(e.getConsumerProcessId())) {
                record(fanouts, e.getSourceBatchId(), a.nanos(), duplicateFanouts);
            } else if (event instanceof JobStarted e && byDownstream.containsKey(e.getProcessId())) {
                Long batch = upstreamBatch(e.getTargetBatchMarking());
                if (batch == null) {
                    unmatched.incrementAndGet();
                    System.out.printf("[bench] JobStarted of %d names no lifecycle: marking '%s'%n",
                            e.getProcessId(), e.getTargetBatchMarking());
                    return;
                }
                byDownstream.get(e.getProcessId()).downstreamStarted(e.getInstanceExecId());
                record(triggers, batch, a.nanos(), duplicateTriggers);
            } else if (event instanceof JobHalted e && byDownstream.containsKey(e.getProcessId())) {
                byDownstream.get(e.getProcessId()).downstreamEnded(e.getInstanceExecId(), free);
            } else if (event instanceof JobFailed e && byDownstream.containsKey(e.getProcessId())) {
                downstreamFailures.incrementAndGet();
                System.out.printf("[bench] run %d of %d failed: %s %s%n", e.getInstanceExecId(), e.getProcessId(),
                        e.getErrorCode(), e.getErrorText());
                byDownstream.get(e.getProcessId()).downstreamEnded(e.getInstanceExecId(), free);
            }
        }

        private void record(Map<Long, Long> seen, long batch, long arrived, AtomicInteger duplicates) {
            if (seen.containsKey(batch)) {
                duplicates.incrementAndGet();
                return;
            }
            Long halted = Bench.awaitStamp(haltedAt, batch);
            if (halted == null) {
                unmatched.incrementAndGet();
                System.out.printf("[bench] an event for batch %d came, but no HaltJob answer for it%n", batch);
                return;
            }
            seen.put(batch, Math.max(0, arrived - halted));
        }

        /** A's target batch from B's run's marking {@code lat-<batch>@…}; null when it is not one of ours. */
        private static Long upstreamBatch(String marking) {
            if (marking == null || !marking.startsWith(MARKING_PREFIX) || marking.indexOf('@') < 0) {
                return null;
            }
            try {
                return Long.parseLong(marking.substring(MARKING_PREFIX.length(), marking.indexOf('@')));
            } catch (NumberFormatException e) {
                return null;
            }
        }

        /** Prints the figures and the RESULT line; true when every fan-out and trigger was seen exactly once. */
        boolean report(double rate, int poolSize) {
            int total = haltedAt.size();
            List<Long> fan = sorted(fanouts.values());
            List<Long> trig = sorted(triggers.values());
            List<Long> lag = sorted(startLag);
            List<Long> init = sorted(initJobNanos);
            int started = lag.size() - noFreeChain.get();
            System.out.printf(Locale.ROOT, "[bench] %d starts due, %d started, %d found no free chain (pool %d), %d"
                            + " calls failed; start lag p99 %.1f ms, max %.1f ms; answered lifecycles %.2f/s%n",
                    lag.size(), started, noFreeChain.get(), poolSize, failedCalls.get(), Bench.pct(lag, 0.99),
                    Bench.pct(lag, 1.0), total / ((lastHalt - start) / 1e9));
            System.out.printf(Locale.ROOT, "[bench] InitJob answered in p50 %.1f ms, p99 %.1f ms%n",
                    Bench.pct(init, 0.50), Bench.pct(init, 0.99));
            System.out.printf(Locale.ROOT, "[bench] fan-out, HaltJob(A) answered -> BatchEnqueued for B's step seen:"
                            + " %d of %d, p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms, %d duplicated%n",
                    fan.size(), total, Bench.pct(fan, 0.50), Bench.pct(fan, 0.90), Bench.pct(fan, 0.99),
                    Bench.pct(fan, 1.0), duplicateFanouts.get());
            System.out.printf(Locale.ROOT, "[bench] trigger, HaltJob(A) answered -> JobStarted(B) seen: %d of %d,"
                            + " p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms, %d duplicated; %d runs of B"
                            + " failed%n", trig.size(), total, Bench.pct(trig, 0.50), Bench.pct(trig, 0.95),
                    Bench.pct(trig, 0.99), Bench.pct(trig, 1.0), duplicateTriggers.get(), downstreamFailures.get());
            System.out.printf(Locale.ROOT, "RESULT offered_per_s=%.2f fanout_p50_ms=%.1f fanout_p99_ms=%.1f"
                            + " trigger_p95_ms=%.1f trigger_p99_ms=%.1f fanouts=%d/%d triggers=%d/%d"
                            + " duplicates=%d no_free_chain=%d failed_calls=%d%n", rate, Bench.pct(fan, 0.50),
                    Bench.pct(fan, 0.99), Bench.pct(trig, 0.95), Bench.pct(trig, 0.99), fan.size(), total,
                    trig.size(), total, duplicateFanouts.get() + duplicateTriggers.get(), noFreeChain.get(),
                    failedCalls.get());
            boolean whole = fan.size() == total && trig.size() == total && duplicateFanouts.get() == 0
                    && duplicateTriggers.get() == 0 && unmatched.get() == 0 && failedCalls.get() == 0;
            if (!whole) {
                System.out.println("[bench] FAILED: fan-outs or triggers missing or duplicated, or calls failed");
            }
            return whole;
        }

        private static List<Long> sorted(java.util.Collection<Long> values) {
            List<Long> list = new ArrayList<>(values);
            Collections.sort(list);
            return list;
        }
    }
}
