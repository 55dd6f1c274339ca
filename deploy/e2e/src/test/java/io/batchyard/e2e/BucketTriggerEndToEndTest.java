package io.batchyard.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.e2e.BucketTriggers.Job;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bucket-aware triggering over the packaged services (shared stack): producers' batches are registered with their
 * markings through queue-service's {@code POST /batches}; the consumers are stand-alone parents that execution-service's
 * runner starts when their trigger decides, and each run claims exactly the batches its trigger run lists. An hourly
 * producer in UTC feeds a daily consumer in Europe/Berlin 24 batches, 23 on 2026-03-29 and 25 on 2026-10-25; each
 * policy fires as its rule says; five inputs of one bucket make one run; pause, preview and resume (catch-up and skip).
 */
class BucketTriggerEndToEndTest {

    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("yyyyMMddHH").withZone(ZoneOffset.UTC);
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static Stack stack;
    private static BucketTriggers t;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
        t = new BucketTriggers(stack, Stack.sharedScriptDir(), "bucket-trigger");
    }

    @Test
    void anHourlyUtcProducerFeedsABerlinDayWith24Or23Or25BatchesAndOneRunClaimsExactlyThem() {
        Job producer = t.producer("hour", "UTC");
        Job consumer = t.consumer(List.of(producer.parent()), Map.of("policy", "all", "inputs",
                List.of(producer.parent()), "grain", "day", "zone", "Europe/Berlin"));
        try (EventProbe lifecycle = EventProbe.on(stack.kafka(), Topics.EXECUTION_LIFECYCLE)) {
            for (Map.Entry<String, Integer> day : Map.of("20260610", 24, "20260329", 23, "20261025", 25).entrySet()) {
                List<String> hours = utcHoursOfBerlinDay(day.getKey());
                assertThat(hours).as("hours of the Berlin day %s", day.getKey()).hasSize(day.getValue());
                List<Long> batches = new ArrayList<>();
                hours.subList(0, hours.size() - 1).forEach(h -> batches.add(t.batch(producer, h)));
                String last = hours.get(hours.size() - 1);

                Map<String, Object> waiting = awaitWaiting(consumer.parent(), day.getKey(), hours.size() - 1);
                assertThat(((Number) waiting.get("expected")).intValue()).isEqualTo(hours.size());
                assertThat(missing(waiting)).isEqualTo(Map.of(producer.parent(), List.of(last)));
                assertThat(t.why(consumer.parent()).getList("reasons.code", String.class))
                        .contains("WAITING_FOR_BUCKET");
                assertThat(t.runs(consumer.parent(), day.getKey())).as("no run before the day is complete").isEmpty();

                batches.add(t.batch(producer, last));
                Map<String, Object> run = t.awaitStarted(consumer.parent(), day.getKey());
                assertThat(BucketTriggers.batchesOf(run)).isEqualTo(sorted(batches));
                long instance = ((Number) run.get("instanceExecId")).longValue();
                JobStarted started = lifecycle.await(JobStarted.class, e -> e.getInstanceExecId() == instance,
                        BucketTriggers.WAIT).event();
                assertThat(t.claimedBy(consumer.step(), started.getTargetBatchId()))
                        .as("the run of %s claims exactly its %d batches", day.getKey(), hours.size())
                        .isEqualTo(sorted(batches));
                lifecycle.await(JobHalted.class, e -> e.getInstanceExecId() == instance, BucketTriggers.WAIT);
                assertThat(t.runs(consumer.parent(), day.getKey())).hasSize(1);
            }
        }
    }

    @Test
    void eachPolicyFiresAsItsRuleSays() {
        String day = "20260701";
        // each: every input is a run of its bucket; one that comes after the bucket's run started is a new run
        Job[] each = producers(2);
        Job eachConsumer = consumer("each", each, Map.of());
        long a1 = t.batch(each[0], day);
        assertThat(BucketTriggers.batchesOf(t.awaitStarted(eachConsumer.parent(), day))).containsExactly(a1);
        long b1 = t.batch(each[1], day);
        await().atMost(BucketTriggers.WAIT).until(() -> t.runs(eachConsumer.parent(), day).stream()
                .filter(r -> "STARTED".equals(r.get("state"))).count() == 2);
        assertThat(t.runs(eachConsumer.parent(), day).get(0)).satisfies(r ->
                assertThat(BucketTriggers.batchesOf(r)).containsExactly(b1));

        // all: nothing until every input is complete for the bucket
        Job[] all = producers(2);
        Job allConsumer = consumer("all", all, Map.of());
        long a2 = t.batch(all[0], day);
        Map<String, Object> waiting = awaitWaiting(allConsumer.parent(), day, 1);
        assertThat(missing(waiting)).isEqualTo(Map.of(all[1].parent(), List.of(day)));
        assertThat(t.runs(allConsumer.parent(), day)).isEmpty();
        long b2 = t.batch(all[1], day);
        assertThat(BucketTriggers.batchesOf(t.awaitStarted(allConsumer.parent(), day))).containsExactly(
                sorted(List.of(a2, b2)).toArray(Long[]::new));

        // any-of: the first complete input starts the run; the next one is late, recorded, and starts nothing
        Job[] any = producers(2);
        Job anyConsumer = consumer("any-of", any, Map.of());
        long a3 = t.batch(any[0], day);
        assertThat(BucketTriggers.batchesOf(t.awaitStarted(anyConsumer.parent(), day))).containsExactly(a3);
        t.batch(any[1], day);
        await().atMost(BucketTriggers.WAIT).until(() -> late(t.runs(anyConsumer.parent(), day).get(0)) == 1);
        assertThat(t.runs(anyConsumer.parent(), day)).hasSize(1);

        // n-of 2 of 3
        Job[] nOf = producers(3);
        Job nOfConsumer = consumer("n-of", nOf, Map.of("n", 2));
        long a4 = t.batch(nOf[0], day);
        awaitWaiting(nOfConsumer.parent(), day, 1);
        assertThat(t.runs(nOfConsumer.parent(), day)).isEmpty();
        long b4 = t.batch(nOf[1], day);
        assertThat(BucketTriggers.batchesOf(t.awaitStarted(nOfConsumer.parent(), day))).containsExactly(
                sorted(List.of(a4, b4)).toArray(Long[]::new));
        t.batch(nOf[2], day);
        await().atMost(BucketTriggers.WAIT).until(() -> late(t.runs(nOfConsumer.parent(), day).get(0)) == 1);

        // all-with-timeout: once the timeout since the bucket's first input has passed, what arrived runs and what
        // was missing is recorded
        Job[] timed = producers(2);
        Job timedConsumer = consumer("all-with-timeout", timed, Map.of("timeout", "PT5S"));
        long a5 = t.batch(timed[0], day);
        Map<String, Object> timedOut = t.awaitStarted(timedConsumer.parent(), day);
        assertThat(BucketTriggers.batchesOf(timedOut)).containsExactly(a5);
        assertThat(missing(timedOut)).isEqualTo(Map.of(timed[1].parent(), List.of(day)));
    }

    @Test
    void fiveInputsOfABucketJoinItsPendingRunAndOneRunClaimsAllFive() {
        String day = "20260702";
        Job[] producer = producers(1);
        Job consumer = consumer("each", producer, Map.of());
        assertThat(t.execution().post("/processes/" + consumer.parent() + "/trigger/pause").jsonPath()
                .getBoolean("paused")).isTrue();
        List<Long> batches = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            batches.add(t.batch(producer[0], day));
        }
        JsonPath preview = await().atMost(BucketTriggers.WAIT).until(() -> preview(consumer.parent(), "catch-up"),
                p -> p.getList("start").size() == 1 && p.getList("start[0].batches").size() == 5);
        assertThat(preview.getList("skip")).isEmpty();

        BucketTriggers.ok(t.execution().body(Map.of("mode", "catch-up")).post("/processes/" + consumer.parent()
                + "/trigger/resume"));
        Map<String, Object> run = t.awaitStarted(consumer.parent(), day);
        assertThat(BucketTriggers.batchesOf(run)).isEqualTo(sorted(batches));
        assertThat(t.runs(consumer.parent(), day)).hasSize(1);
        try (EventProbe lifecycle = EventProbe.on(stack.kafka(), Topics.EXECUTION_LIFECYCLE)) {
            long instance = ((Number) run.get("instanceExecId")).longValue();
            // the probe reads from the start of the topic: the run's JobStarted is there whenever it was written
            JobStarted started = lifecycle.await(JobStarted.class, e -> e.getInstanceExecId() == instance,
                    BucketTriggers.WAIT).event();
            assertThat(t.claimedBy(consumer.step(), started.getTargetBatchId())).isEqualTo(sorted(batches));
        }
    }

    @Test
    void pausedInputsWaitThenCatchUpStartsEveryDueBucketOldestFirst() {
        Job[] producer = producers(1);
        Job consumer = consumer("each", producer, Map.of());
        BucketTriggers.ok(t.execution().post("/processes/" + consumer.parent() + "/trigger/pause"));
        List<String> days = List.of("20260703", "20260704", "20260705");
        days.forEach(d -> t.batch(producer[0], d));
        JsonPath preview = await().atMost(BucketTriggers.WAIT).until(() -> preview(consumer.parent(), "catch-up"),
                p -> p.getList("start").size() == 3);
        assertThat(preview.getList("start.bucket", String.class)).isEqualTo(days);
        assertThat(preview.getList("skip")).isEmpty();
        assertThat(t.why(consumer.parent()).getList("reasons.code", String.class)).contains("TRIGGER_PAUSED");
        assertThat(t.runs(consumer.parent()).stream().map(r -> r.get("state")).distinct().toList())
                .as("nothing starts while paused").containsExactly("PENDING");

        JsonPath resumed = BucketTriggers.ok(t.execution().body(Map.of("mode", "catch-up"))
                .post("/processes/" + consumer.parent() + "/trigger/resume")).jsonPath();
        assertThat(resumed.getList("start.bucket", String.class)).isEqualTo(days);
        List<Long> instances = days.stream().map(d -> ((Number) t.awaitStarted(consumer.parent(), d)
                .get("instanceExecId")).longValue()).toList();
        assertThat(instances).as("oldest bucket first").isSortedAccordingTo(Comparator.naturalOrder());

        // resuming what is not paused is refused with its code
        assertThat(t.execution().body(Map.of("mode", "catch-up")).post("/processes/" + consumer.parent()
                + "/trigger/resume").then().extract().jsonPath().getInt("code")).isEqualTo(437);
    }

    @Test
    void resumeWithSkipStartsOnlyTheNewestDueBucketAndLeavesTheOlderBatchesQueued() {
        Job[] producer = producers(1);
        Job consumer = consumer("each", producer, Map.of());
        BucketTriggers.ok(t.execution().post("/processes/" + consumer.parent() + "/trigger/pause"));
        List<String> days = List.of("20260706", "20260707", "20260708");
        List<Long> batches = days.stream().map(d -> t.batch(producer[0], d)).toList();
        JsonPath preview = await().atMost(BucketTriggers.WAIT).until(() -> preview(consumer.parent(), "skip"),
                p -> p.getList("start").size() + p.getList("skip").size() == 3);
        assertThat(preview.getList("start.bucket", String.class)).containsExactly("20260708");
        assertThat(preview.getList("skip.bucket", String.class)).containsExactlyInAnyOrder("20260706", "20260707");

        BucketTriggers.ok(t.execution().body(Map.of("mode", "skip")).post("/processes/" + consumer.parent()
                + "/trigger/resume"));
        Map<String, Object> run = t.awaitStarted(consumer.parent(), "20260708");
        assertThat(BucketTriggers.batchesOf(run)).containsExactly(batches.get(2));
        for (String skipped : List.of("20260706", "20260707")) {
            assertThat(t.runs(consumer.parent(), skipped)).singleElement()
                    .satisfies(r -> assertThat(r.get("state")).isEqualTo("SKIPPED"));
        }
        assertThat(t.unclaimed(consumer.step())).as("the skipped buckets' batches stay on the queue")
                .containsExactlyInAnyOrder(batches.get(0), batches.get(1));
    }

    // ---- helpers ----

    /** Producers of daily batches in UTC (their markings yyyyMMdd). */
    private static Job[] producers(int n) {
        Job[] p = new Job[n];
        for (int i = 0; i < n; i++) {
            p[i] = t.producer("day", "UTC");
        }
        return p;
    }

    /** A daily (UTC) consumer of every producer with {@code policy} and {@code extra} settings. */
    private static Job consumer(String policy, Job[] producers, Map<String, Object> extra) {
        List<Long> inputs = java.util.Arrays.stream(producers).map(Job::parent).toList();
        Map<String, Object> settings = new HashMap<>(extra);
        settings.put("policy", policy);
        settings.put("inputs", inputs);
        settings.put("grain", "day");
        settings.put("zone", "UTC");
        return t.consumer(inputs, settings);
    }

    /** Waits until /why lists the bucket as waited for with {@code arrived} inputs; answers that entry. */
    private static Map<String, Object> awaitWaiting(long parent, String bucket, int arrived) {
        return await().atMost(BucketTriggers.WAIT).pollInterval(Duration.ofMillis(250))
                .until(() -> waiting(parent, bucket), w -> w.isPresent()
                        && ((Number) w.get().get("arrived")).intValue() == arrived).orElseThrow();
    }

    private static Optional<Map<String, Object>> waiting(long parent, String bucket) {
        List<Map<String, Object>> waiting = t.why(parent).getList("waiting");
        return waiting == null ? Optional.empty()
                : waiting.stream().filter(w -> bucket.equals(w.get("bucket"))).findFirst();
    }

    private static JsonPath preview(long parent, String mode) {
        return BucketTriggers.ok(t.execution().queryParam("mode", mode).get("/processes/" + parent
                + "/trigger/resume-preview")).jsonPath();
    }

    /** A waiting bucket's or a trigger run's {@code missing}: the buckets still out, by input process. */
    @SuppressWarnings("unchecked")
    private static Map<Long, List<String>> missing(Map<String, Object> entry) {
        Map<Long, List<String>> out = new HashMap<>();
        for (Map<String, Object> m : (List<Map<String, Object>>) entry.get("missing")) {
            out.put(((Number) m.get("processId")).longValue(), (List<String>) m.get("buckets"));
        }
        return out;
    }

    private static int late(Map<String, Object> run) {
        return ((Number) run.get("late")).intValue();
    }

    /** The UTC hour keys whose hour starts within the Berlin day (its local midnight to the next). */
    static List<String> utcHoursOfBerlinDay(String day) {
        LocalDate date = LocalDate.parse(day, DateTimeFormatter.BASIC_ISO_DATE);
        Instant from = date.atStartOfDay(BERLIN).toInstant();
        Instant to = date.plusDays(1).atStartOfDay(BERLIN).toInstant();
        List<String> hours = new ArrayList<>();
        for (Instant h = from; h.isBefore(to); h = h.plusSeconds(3600)) {
            hours.add(HOUR.format(h));
        }
        return hours;
    }

    private static List<Long> sorted(List<Long> ids) {
        return ids.stream().sorted().toList();
    }
}
