package io.batchyard.e2e;

import static io.batchyard.e2e.BucketTriggers.ok;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.e2e.BucketTriggers.Job;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Cascading backfill over the packaged services (shared stack), on a diamond of stand-alone jobs the runner runs:
 * a producer's daily batches feed A; A feeds B and C; D joins B and C. Five days run live through the diamond, then
 * A is restated for three of them. The preview lists exactly the twelve runs (A, B, C and D of each of the three days)
 * that consumed what the restated runs made, in three levels; running it with concurrency 2 re-runs each once, in
 * dependency order, B, C and D consuming the re-made batches, and creates no other run.
 */
class BackfillEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(180);
    private static final List<String> DAYS = List.of("20260801", "20260802", "20260803", "20260804", "20260805");
    private static final List<String> RESTATED = List.of("20260802", "20260803", "20260804");
    private static Stack stack;
    private static BucketTriggers t;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
        t = new BucketTriggers(stack, Stack.sharedScriptDir(), "backfill-diamond");
    }

    @Test
    void aRestatedRootReRunsExactlyTheDiamondBelowItOnceInOrderWithConcurrencyTwo() {
        Diamond diamond = diamond(DAYS, jobs -> { });
        Job a = diamond.a(), b = diamond.b(), c = diamond.c(), d = diamond.d();
        Map<Long, String> names = diamond.names();
        Map<Long, Map<String, Long>> live = diamond.live();

        // the preview: exactly these twelve, by hand
        JsonPath plan = ok(t.execution().body(Map.of("roots", List.of(Map.of("processId", a.parent())),
                "fromBucket", RESTATED.get(0), "toBucket", RESTATED.get(2), "mode", "all", "cascade", true))
                .post("/backfills/preview"), 201).jsonPath();
        Set<String> expected = new HashSet<>();
        for (String day : RESTATED) {
            expected.add("A " + day + " level 0 replaces " + live.get(a.parent()).get(day));
            expected.add("B " + day + " level 1 replaces " + live.get(b.parent()).get(day));
            expected.add("C " + day + " level 1 replaces " + live.get(c.parent()).get(day));
            expected.add("D " + day + " level 2 replaces " + live.get(d.parent()).get(day));
        }
        List<Map<String, Object>> entries = plan.getList("entries");
        assertThat(entries.stream().map(e -> names.get(num(e, "processId")) + " " + e.get("bucket") + " level "
                + e.get("level") + " replaces " + num(e, "replacedRunId")).collect(Collectors.toSet()))
                .isEqualTo(expected);
        assertThat(entries).hasSize(12);
        assertThat(plan.getInt("levels")).isEqualTo(3);

        // run it, two at a time
        JsonPath done = runToTheEnd(plan.getString("planId"));
        assertThat(done.getString("backfill.state")).as(done.prettify()).isEqualTo("SUCCEEDED");
        assertThat(done.getInt("progress.succeeded")).isEqualTo(12);
        assertThat(done.getList("progress.levels.succeeded", Integer.class)).containsExactly(3, 6, 3);

        // each entry re-ran once: the new runs are exactly the entries' runs, and there is no other
        Map<Integer, Map<String, Object>> byEntry = new HashMap<>();
        List<Map<String, Object>> progress = done.getList("progress.entryRuns");
        progress.forEach(e -> byEntry.put(((Number) e.get("entryNo")).intValue(), e));
        Map<Long, Map<String, Object>> newRuns = new HashMap<>();
        for (Job job : List.of(a, b, c, d)) {
            List<Map<String, Object>> all = runs(job.parent());
            assertThat(all).as("runs of %s", names.get(job.parent())).hasSize(DAYS.size() + RESTATED.size());
            all.stream().filter(r -> !live.get(job.parent()).containsValue(num(r, "instanceExecId")))
                    .forEach(r -> newRuns.put(num(r, "instanceExecId"), r));
        }
        assertThat(newRuns.keySet()).isEqualTo(progress.stream().map(e -> num(e, "instanceExecId"))
                .collect(Collectors.toSet()));

        // dependency order: an entry's run starts after the runs of the entries it consumes from ended
        for (Map<String, Object> e : entries) {
            Map<String, Object> run = newRuns.get(num(byEntry.get(((Number) e.get("entryNo")).intValue()),
                    "instanceExecId"));
            assertThat(run.get("batchMarking")).isEqualTo(e.get("bucket"));
            for (Map<String, Object> producer : entries) {
                if (((Number) producer.get("level")).intValue() < ((Number) e.get("level")).intValue()
                        && producer.get("bucket").equals(e.get("bucket"))) {
                    Map<String, Object> before = newRuns.get(num(byEntry.get(((Number) producer.get("entryNo"))
                            .intValue()), "instanceExecId"));
                    assertThat(time(run, "startTs")).isAfterOrEqualTo(time(before, "endTs"));
                }
            }
        }
        // never more than two of them at once
        for (Map<String, Object> r : newRuns.values()) {
            long overlapping = newRuns.values().stream().filter(o -> !time(o, "startTs").isAfter(time(r, "startTs"))
                    && time(o, "endTs").isAfter(time(r, "startTs"))).count();
            assertThat(overlapping).as("runs in flight when run %s started", r.get("instanceExecId"))
                    .isLessThanOrEqualTo(2);
        }

        // the archives: B, C and D consumed the re-made batches, each step once per restated day
        for (String day : RESTATED) {
            long remadeA = target(newRuns, a.parent(), day);
            assertThat(consumed(b.step(), target(newRuns, b.parent(), day))).containsExactly(remadeA);
            assertThat(consumed(c.step(), target(newRuns, c.parent(), day))).containsExactly(remadeA);
            assertThat(consumed(d.step(), target(newRuns, d.parent(), day))).containsExactlyInAnyOrder(
                    target(newRuns, b.parent(), day), target(newRuns, c.parent(), day));
        }
        // and no live run followed from the re-made batches
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10)).until(() -> List.of(a, b, c, d).stream()
                .allMatch(job -> runs(job.parent()).size() == DAYS.size() + RESTATED.size()));
    }

    /**
     * A root restated in one column only: the column lineage (each step's query registered with lineage-service)
     * says a.x reaches B (its query reads it) and, through B's output, D, but not C, whose query reads a.y. The
     * preview lists C's entry as pruned, with why; the run re-runs A, B and D, never C, and D consumes B's re-made
     * batch beside C's batch as it was.
     */
    @Test
    void aRootRestatedInOneColumnLeavesOutTheJobsItsLineageDoesNotReach() {
        String db = "bf" + System.nanoTime() % 1_000_000_000L;
        List<String> days = List.of("20260901", "20260902", "20260903");
        String day = "20260902";
        Diamond diamond = diamond(days, jobs -> {
            register(jobs.get(0).step(), "INSERT OVERWRITE TABLE " + db + ".a SELECT s.x AS x, s.y AS y FROM "
                    + db + ".src s");
            register(jobs.get(1).step(), "INSERT OVERWRITE TABLE " + db + ".b SELECT a.x AS bx FROM " + db + ".a a");
            register(jobs.get(2).step(), "INSERT OVERWRITE TABLE " + db + ".c SELECT a.y AS cy FROM " + db + ".a a");
            register(jobs.get(3).step(), "INSERT OVERWRITE TABLE " + db + ".d SELECT b.bx AS dx, c.cy AS dy FROM "
                    + db + ".b b JOIN " + db + ".c c ON b.bx = c.cy");
        });
        Job a = diamond.a(), b = diamond.b(), c = diamond.c(), d = diamond.d();
        Map<Long, Map<String, Long>> live = diamond.live();

        JsonPath plan = ok(t.execution().body(Map.of("roots", List.of(Map.of("processId", a.parent(),
                        "columns", List.of(db + ".a.x"))), "fromBucket", day, "toBucket", day))
                .post("/backfills/preview"), 201).jsonPath();
        List<Map<String, Object>> entries = plan.getList("entries");
        assertThat(entries).hasSize(4);
        Map<String, Object> entryC = entries.stream().filter(e -> num(e, "processId") == c.parent()).findFirst()
                .orElseThrow();
        assertThat(entryC.get("pruned")).isEqualTo("the column lineage of " + db + ".a.x does not reach process "
                + c.parent());
        assertThat(entries.stream().filter(e -> e.get("pruned") == null).map(e -> num(e, "processId")))
                .containsExactlyInAnyOrder(a.parent(), b.parent(), d.parent());
        Map<String, Object> entryD = entries.stream().filter(e -> num(e, "processId") == d.parent()).findFirst()
                .orElseThrow();
        assertThat((List<?>) entryD.get("consumes")).as("D waits for B alone").hasSize(1);

        JsonPath done = runToTheEnd(plan.getString("planId"));
        assertThat(done.getString("backfill.state")).as(done.prettify()).isEqualTo("SUCCEEDED");
        assertThat(done.getInt("progress.succeeded")).isEqualTo(3);
        assertThat(runs(c.parent())).as("C never re-ran").hasSize(days.size());
        Map<Long, Map<String, Object>> newRuns = new HashMap<>();
        for (Job job : List.of(a, b, d)) {
            List<Map<String, Object>> all = runs(job.parent());
            assertThat(all).hasSize(days.size() + 1);
            all.stream().filter(r -> !live.get(job.parent()).containsValue(num(r, "instanceExecId")))
                    .forEach(r -> newRuns.put(num(r, "instanceExecId"), r));
        }
        long liveC = ((Number) t.jobRuns(c.parent()).stream().filter(r -> day.equals(r.get("batchMarking")))
                .findFirst().orElseThrow().get("targetBatchId")).longValue();
        assertThat(consumed(d.step(), target(newRuns, d.parent(), day)))
                .containsExactlyInAnyOrder(target(newRuns, b.parent(), day), liveC);
    }

    /** Starts the plan with concurrency 2 and answers the backfill once it ended. */
    private static JsonPath runToTheEnd(String planId) {
        JsonPath started = ok(t.execution().body(Map.of("planId", planId, "concurrency", 2)).post("/backfills"), 202)
                .jsonPath();
        String id = started.getString("backfill.backfillId");
        return await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).until(
                () -> ok(t.execution().get("/backfills/" + id)).jsonPath(),
                j -> List.of("SUCCEEDED", "FAILED").contains(j.getString("backfill.state")));
    }

    /** The diamond's jobs, their names, and each one's live runs by bucket. */
    private record Diamond(Job a, Job b, Job c, Job d, Map<Long, String> names, Map<Long, Map<String, Long>> live) {
    }

    /**
     * A producer feeding A; A feeding B and C; D joining B and C. {@code before} sees A, B, C, D before any batch
     * arrives; then every job runs live once per day.
     */
    private static Diamond diamond(List<String> days, Consumer<List<Job>> before) {
        Job p = t.producer("day", "UTC");
        Job a = t.consumer(List.of(p.parent()), BucketTriggers.daily("each", p));
        Job b = t.consumer(List.of(a.parent()), BucketTriggers.daily("each", a));
        Job c = t.consumer(List.of(a.parent()), BucketTriggers.daily("each", a));
        Job d = t.consumer(List.of(b.parent(), c.parent()), BucketTriggers.daily("all", b, c));
        Map<Long, String> names = Map.of(a.parent(), "A", b.parent(), "B", c.parent(), "C", d.parent(), "D");
        before.accept(List.of(a, b, c, d));
        days.forEach(day -> t.batch(p, day));
        // the live runs: every job once per day
        for (Job job : List.of(a, b, c, d)) {
            await().atMost(WAIT).pollInterval(Duration.ofMillis(500))
                    .until(() -> complete(job.parent()).keySet().containsAll(days));
        }
        Map<Long, Map<String, Long>> live = new HashMap<>();
        for (Job job : List.of(a, b, c, d)) {
            live.put(job.parent(), complete(job.parent()));
            assertThat(runs(job.parent())).as("live runs of %s", names.get(job.parent())).hasSize(days.size());
        }
        return new Diamond(a, b, c, d, names, live);
    }

    /** A step's query, as its job would register it with lineage-service. */
    private static void register(long step, String sql) {
        ok(given().baseUri(stack.lineage.url()).contentType(ContentType.JSON).body(Map.of("queryType", "HIVE", "processId", step, "queryText", sql)).post("/queries"), 201);
    }

    private static Map<String, Long> complete(long parent) {
        return t.completeBuckets(parent);
    }

    private static List<Map<String, Object>> runs(long parent) {
        return t.jobRuns(parent);
    }

    private static long target(Map<Long, Map<String, Object>> runs, long parent, String day) {
        return runs.values().stream().filter(r -> num(r, "processId") == parent && day.equals(r.get("batchMarking")))
                .map(r -> num(r, "targetBatchId")).findFirst().orElseThrow();
    }

    /** The source batches the run with this target batch consumed, from the step's archive. */
    private static List<Long> consumed(long step, long targetBatch) {
        return t.claimedBy(step, targetBatch);
    }

    private static long num(Map<String, Object> m, String key) {
        return ((Number) m.get(key)).longValue();
    }

    private static OffsetDateTime time(Map<String, Object> m, String key) {
        return OffsetDateTime.parse((String) m.get(key));
    }
}
