package io.batchyard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Backfills at scale, in two modes.
 *
 * <p>{@code --mode preview}: how long a batch-precise preview takes over a large history. A tree of {@code --processes}
 * jobs (default 200; job i consumes job (i-1)/2's batches, the root a producer's) gets {@code --buckets} days of
 * history (default 30): the producer's batches are registered, then every job runs once per day through the lifecycle
 * API (InitJob, InitStep, HaltStep, HaltJob with the day as marking), level by level, so each run consumes its
 * upstream's run of the same day. The preview restates the producer's batches from the root with cascade:
 * {@code processes x buckets} entries. It is asked {@code --previews} times (default 20), one after another; prints
 * the latencies and {@code RESULT preview processes=… buckets=… entries=… preview_p50_ms=… preview_p95_ms=…}.
 *
 * <p>{@code --mode load}: a backfill that keeps the runner busy, to measure live work beside it. Two stand-alone jobs
 * (the runner runs {@code stamp.sh}, no trigger) each get {@code --buckets} days (default 60) of a producer's batches
 * that they never ran; a backfill of mode {@code missing} re-runs them all, {@code --concurrency} at a time (default
 * 2). Prints {@code BACKFILL <id>} once it is started; {@code --mode status --id <id>} prints its state and counts.
 *
 * <p>Endpoints as the other benchmarks ({@link Bench.Endpoints}); a bearer token of roles developer and operator in
 * {@code BATCHYARD_TOKEN}.
 */
public final class BackfillBenchmark {

    private BackfillBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = Bench.options(args);
        Bench.Endpoints endpoints = Bench.Endpoints.of(opts);
        Http http = new Http();
        switch (opts.getOrDefault("mode", "preview")) {
            case "preview" -> preview(http, endpoints, Integer.parseInt(opts.getOrDefault("processes", "200")),
                    Integer.parseInt(opts.getOrDefault("buckets", "30")),
                    Integer.parseInt(opts.getOrDefault("previews", "20")));
            case "load" -> load(http, endpoints, Integer.parseInt(opts.getOrDefault("buckets", "60")),
                    Integer.parseInt(opts.getOrDefault("concurrency", "2")));
            case "status" -> {
                JsonNode b = http.expect(200, "GET", endpoints.execution() + "/backfills/" + opts.get("id"), null);
                JsonNode p = b.path("progress");
                System.out.printf(Locale.ROOT, "STATUS state=%s entries=%d succeeded=%d running=%d pending=%d failed=%d%n",
                        b.path("backfill").path("state").asText(), p.path("entries").asInt(),
                        p.path("succeeded").asInt(), p.path("running").asInt(), p.path("pending").asInt(),
                        p.path("failed").asInt());
            }
            default -> throw new IllegalArgumentException("--mode preview, load or status");
        }
    }

    /** A job of one step: its parent, its step, and the job whose batches the step consumes. */
    private record Job(long parent, long step) {
    }

    private static Job job(Http http, String registry, long app, int parentType, Integer workflow, int stepType,
                           long upstream) {
        long parent = Bench.process(http, registry, app, parentType, workflow, null, List.of());
        long step = Bench.process(http, registry, app, stepType, null, parent, List.of(upstream));
        Bench.link(http, registry, parent, step);
        Bench.link(http, registry, step, parent);
        return new Job(parent, step);
    }

    /** A job whose batches the test registers itself (POST /batches): the source of everything downstream. */
    private static long producer(Http http, String registry, long app) {
        long producer = Bench.process(http, registry, app, 1, null, null, List.of());
        long step = Bench.process(http, registry, app, 12, null, producer, List.of());
        Bench.link(http, registry, producer, step);
        Bench.link(http, registry, step, producer);
        return producer;
    }

    private static List<String> days(int n) {
        List<String> days = new ArrayList<>();
        java.time.LocalDate d = java.time.LocalDate.of(2025, 1, 1);
        for (int i = 0; i < n; i++) {
            days.add(d.plusDays(i).format(java.time.format.DateTimeFormatter.BASIC_ISO_DATE));
        }
        return days;
    }

    private static long batch(Http http, String queue, long producer, String marking) {
        return http.expect(201, "POST", queue + "/batches", Map.of("enqueuingProcessId", producer, "serverId", 4501,
                "batchMarking", marking, "files", List.of(Map.of("path", "/landing/" + java.util.UUID.randomUUID(),
                        "fileSize", 1)))).get("batchId").asLong();
    }

    private static void preview(Http http, Bench.Endpoints e, int processes, int buckets, int previews)
            throws Exception {
        String registry = e.registry(), execution = e.execution(), queue = e.queue();
        long app = Bench.application(http, registry, "backfill preview benchmark");
        long producer = producer(http, registry, app);
        List<Job> jobs = new ArrayList<>();
        long started = System.nanoTime();
        for (int i = 0; i < processes; i++) {
            long upstream = i == 0 ? producer : jobs.get((i - 1) / 2).parent();
            jobs.add(job(http, registry, app, 1, null, 12, upstream));
        }
        System.out.printf(Locale.ROOT, "[backfill] %d jobs in a tree registered in %d s%n", processes,
                TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
        Bench.awaitLinked(http, List.of(execution, queue), List.of(jobs.get(processes - 1).step()));

        List<Long> restated = new ArrayList<>();
        for (String day : days(buckets)) {
            restated.add(batch(http, queue, producer, day));
        }
        // Level by level: a job runs its days once its upstream's outputs of all of them are on its queue.
        started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        int level = 0;
        for (int from = 0; from < processes; from = 2 * from + 1, level++) {
            int to = Math.min(processes, 2 * from + 1);
            List<Future<?>> done = new ArrayList<>();
            for (Job j : jobs.subList(from, to)) {
                done.add(pool.submit(() -> history(http, execution, queue, j, buckets)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        pool.shutdown();
        System.out.printf(Locale.ROOT, "[backfill] %d runs of history (%d levels) in %d s%n", processes * buckets,
                level, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));

        Map<String, Object> request = Map.of("roots", List.of(Map.of("processId", jobs.get(0).parent())),
                "batchIds", restated, "mode", "all", "cascade", true);
        List<Long> nanos = new ArrayList<>();
        int entries = -1;
        for (int i = 0; i < previews; i++) {
            long asked = System.nanoTime();
            Http.Reply reply = http.send("POST", execution + "/backfills/preview", request,
                    java.time.Duration.ofMinutes(2));
            nanos.add(System.nanoTime() - asked);
            if (reply.status() != 201) {
                throw new IllegalStateException("preview refused: " + reply.status() + " " + reply.body());
            }
            entries = reply.body().path("entries").size();
        }
        List<Long> sorted = new ArrayList<>(nanos);
        sorted.sort(null);
        System.out.printf(Locale.ROOT, "[backfill] previews (ms, in order): %s%n",
                nanos.stream().map(TimeUnit.NANOSECONDS::toMillis).toList());
        boolean whole = entries == processes * buckets;
        System.out.printf(Locale.ROOT, "RESULT preview processes=%d buckets=%d entries=%d/%d preview_p50_ms=%.0f "
                        + "preview_p95_ms=%.0f preview_max_ms=%.0f%n", processes, buckets, entries, processes * buckets,
                Bench.pct(sorted, 0.50), Bench.pct(sorted, 0.95), Bench.pct(sorted, 1.0));
        System.exit(whole ? 0 : 2);
    }

    /** The job's runs of every day: each claims the oldest waiting batch and halts with its marking. */
    private static void history(Http http, String execution, String queue, Job j, int buckets) {
        try {
            awaitWaiting(http, queue, j.step(), buckets);
            for (int i = 0; i < buckets; i++) {
                JsonNode init = http.expect(200, "POST", execution + "/jobs/" + j.parent() + "/init",
                        Map.of("maxBatch", 1));
                String marking = init.path("rows").path(0).path("batchMarking").asText();
                http.expect(200, "POST", execution + "/steps/" + j.step() + "/init", null);
                http.expect(200, "POST", execution + "/steps/" + j.step() + "/halt", null);
                http.expect(200, "POST", execution + "/jobs/" + j.parent() + "/halt", Map.of("batchMarking", marking));
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** Waits until {@code n} batches wait on the step's queue (its upstream's fan-outs arrived). */
    private static void awaitWaiting(Http http, String queue, long step, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (http.expect(200, "GET", queue + "/queue?processId=" + step + "&state=0&limit=500", null)
                .path("items").size() < n) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the batches for step " + step + " did not all arrive");
            }
            Thread.sleep(200);
        }
    }

    private static void load(Http http, Bench.Endpoints e, int buckets, int concurrency) throws Exception {
        String registry = e.registry(), execution = e.execution(), queue = e.queue();
        long app = Bench.application(http, registry, "backfill load benchmark");
        long producer = producer(http, registry, app);
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Job j = job(http, registry, app, 2, 2, 22, producer);
            http.expect(200, "PUT", registry + "/processes/" + j.step() + "/properties/script",
                    Map.of("configGroup", "script", "value", "stamp.sh"));
            jobs.add(j);
        }
        for (Job j : jobs) {
            Bench.awaitLinked(http, List.of(execution, queue), List.of(j.step()));
            Bench.awaitDefinition(http, execution, j.step(), body -> body.toString().contains("stamp.sh"));
        }
        List<Long> deployments = new ArrayList<>();
        for (Job j : jobs) {
            http.expect(200, "PUT", execution + "/runner/processes/" + j.parent(), Map.of());
            deployments.add(http.expect(201, "POST", execution + "/processes/" + j.parent() + "/deployments", null)
                    .get("deploymentId").asLong());
        }
        Bench.awaitDeployed(http, execution, deployments);
        List<Long> restated = new ArrayList<>();
        for (String day : days(buckets)) {
            restated.add(batch(http, queue, producer, day));
        }
        for (Job j : jobs) {
            awaitWaiting(http, queue, j.step(), buckets);
        }
        Map<String, Object> request = new HashMap<>();
        request.put("roots", jobs.stream().map(j -> Map.of("processId", j.parent())).toList());
        request.put("batchIds", restated);
        request.put("mode", "missing");
        JsonNode plan = http.expect(201, "POST", execution + "/backfills/preview", request);
        JsonNode started = http.expect(202, "POST", execution + "/backfills",
                Map.of("planId", plan.get("planId").asText(), "concurrency", concurrency));
        System.out.printf(Locale.ROOT, "[backfill] %d entries of 2 jobs that never ran, concurrency %d%n",
                plan.path("entries").size(), concurrency);
        System.out.println("BACKFILL " + started.path("backfill").path("backfillId").asText());
    }
}
