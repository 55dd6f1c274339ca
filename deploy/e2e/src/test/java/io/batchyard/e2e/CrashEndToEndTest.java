package io.batchyard.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.batchyard.e2e.BucketTriggers.Job;
import io.batchyard.events.execution.DeadlineChanged;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.ChildProcesses;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.RestartableKafka;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Exactly once across crashes, with {@code kill -9} and a start again:
 * <ul>
 * <li>triggers: execution-service, and separately queue-service, killed at points between an input's arrival and its
 * run's start (right after the batch was enqueued, while the trigger's decisions of a burst are committing). Every
 * bucket ends with one trigger run, one JobStarted and its batch claimed by that run alone;</li>
 * <li>backfills: a paused backfill stays paused across a kill of execution-service, and finishes once resumed, each
 * entry once;</li>
 * <li>deadlines: execution-service killed between a deadline's SET and its time, and down across another one's. The
 * first is MISSED by the restarted service, the second as soon as the service is back; each transition is one
 * event (one event id).</li>
 * </ul>
 * The suite owns its broker and databases: it kills services.
 */
class CrashEndToEndTest {

    private static RestartableKafka kafka;
    private static Stack stack;
    private static BucketTriggers t;
    private static Job producer;
    private static Job consumer;
    private static EventProbe lifecycle;
    private static EventProbe deadlines;
    /** Each bucket's batch, over all the scenarios (every bucket is a day of its own). */
    private static final Map<String, Long> batchOfBucket = new LinkedHashMap<>();

    @BeforeAll
    static void start() {
        kafka = RestartableKafka.start(Topics.ALL);
        Path scripts = scriptDir();
        // a run in flight when execution-service is killed keeps its parent until the dead runner's lease runs out
        // (default two minutes); a short lease lets the restarted runner resume it within the test's wait
        stack = Stack.ownBroker(kafka.bootstrapServers(), "trgcrash_", Map.of(
                "BATCHYARD_RUNNER_SCRIPT_DIR", scripts.toString(), "BATCHYARD_DEPLOY_POLL_INTERVAL", "PT1S",
                "BATCHYARD_RUNNER_LEASE", "PT10S"));
        t = new BucketTriggers(stack, scripts, "crash");
        producer = t.producer("day", "UTC");
        consumer = t.consumer(List.of(producer.parent()), Map.of("policy", "each", "inputs",
                List.of(producer.parent()), "grain", "day", "zone", "UTC"));
        lifecycle = EventProbe.on(kafka.bootstrapServers(), Topics.EXECUTION_LIFECYCLE);
        deadlines = EventProbe.on(kafka.bootstrapServers(), Topics.EXECUTION_DEADLINES);
    }

    @AfterAll
    static void stop() {
        ChildProcesses.closeAll("crash", lifecycle, deadlines, stack, kafka);
    }

    @Test
    void executionServiceKilledRightAfterAnInputIsEnqueuedStartsItsRunOnceAfterRestart() {
        // the later kills come while the trigger consumer has the event, is deciding or has just committed
        for (int delayMs : new int[] {0, 100, 300}) {
            String bucket = "202608" + String.format("%02d", 1 + delayMs % 28);
            batchOfBucket.put(bucket, t.batch(producer, bucket));
            ChildProcesses.sleep(delayMs);
            Instant killed = Instant.now();
            stack.execution.kill();
            stack.execution.restart();
            System.out.printf("[crash] execution-service killed %d ms after bucket %s's batch was enqueued: "
                    + "back in %d ms%n", delayMs, bucket, Duration.between(killed, Instant.now()).toMillis());
        }
        assertOneRunPerBucket();
    }

    @Test
    void queueServiceKilledBeforeItsBatchEnqueuedIsRelayedStillTriggersOnce() {
        for (int delayMs : new int[] {0, 100}) {
            String bucket = "202609" + String.format("%02d", 1 + delayMs % 28);
            batchOfBucket.put(bucket, t.batch(producer, bucket));
            ChildProcesses.sleep(delayMs);
            stack.queue.kill();
            stack.queue.restart();
            System.out.printf("[crash] queue-service killed %d ms after bucket %s's batch was registered%n",
                    delayMs, bucket);
        }
        assertOneRunPerBucket();
    }

    @Test
    void executionServiceKilledWhileABurstsDecisionsCommitStartsEachBucketOnce() {
        List<String> burst = new ArrayList<>();
        for (int day = 1; day <= 6; day++) {
            String bucket = "202610" + String.format("%02d", day);
            burst.add(bucket);
            batchOfBucket.put(bucket, t.batch(producer, bucket));
        }
        // the first run of the burst exists: the consumer is in the middle of the burst's decisions and starts
        await().atMost(BucketTriggers.WAIT).pollInterval(Duration.ofMillis(20))
                .until(() -> burst.stream().anyMatch(b -> !t.runs(consumer.parent(), b).isEmpty()));
        stack.execution.kill();
        stack.execution.restart();
        assertOneRunPerBucket();
    }

    @Test
    void deadlinesSetBeforeARestartFireOnceAndAMissDuringDowntimeIsEmittedOnRecovery() {
        // real time, no run at all: an hourly bucket is expected at each minute's fire (the first fire of an hour
        // ends the hour before); A must be finished 40 s after that fire, B 80 s after it (A's miss, seen at about
        // 40 s, leaves the time to kill the service before B's)
        long a = parentWithDeadline("PT40S");
        long b = parentWithDeadline("PT80S");
        DeadlineChanged setA = awaitDeadline(a, "SET", BucketTriggers.WAIT);
        DeadlineChanged setB = awaitDeadline(b, "SET", BucketTriggers.WAIT);
        System.out.printf("[crash] deadlines SET: A due at %s, B due at %s; killing execution-service%n",
                setA.getDueAt(), setB.getDueAt());
        stack.execution.kill();
        stack.execution.restart();
        assertThat(Instant.now()).as("execution-service was back before A's deadline").isBefore(setA.getDueAt());
        DeadlineChanged missedA = awaitDeadline(a, "MISSED", Duration.between(Instant.now(), setA.getDueAt())
                .plusSeconds(30));
        long lateA = Duration.between(setA.getDueAt(), missedA.getHeader().getOccurredAt()).toMillis();
        System.out.printf("[crash] A MISSED %d ms after its time, by the restarted service%n", lateA);
        // the 2 s bound is DeadlineRunTest's and the bench's: here a JVM just restarted shares the machine with others
        assertThat(lateA).as("A MISSED after its deadline").isBetween(0L, 15_000L);

        // down across B's deadline: the miss is emitted once the service is back
        assertThat(Instant.now()).as("B's deadline is still ahead").isBefore(setB.getDueAt());
        stack.execution.kill();
        ChildProcesses.sleep(Duration.between(Instant.now(), setB.getDueAt()).plusSeconds(5).toMillis());
        Instant back = Instant.now();
        stack.execution.restart();
        DeadlineChanged missedB = awaitDeadline(b, "MISSED", BucketTriggers.WAIT);
        System.out.printf("[crash] B MISSED at %s: due at %s, execution-service restarted at %s%n",
                missedB.getHeader().getOccurredAt(), setB.getDueAt(), back);
        assertThat(missedB.getHeader().getOccurredAt()).as("B's miss, emitted on recovery").isAfter(back);

        // each transition of A and B once: one event id each. A kill between the relay's send and its mark of the
        // outbox row sends that row again after the restart, with the same id, which consumers drop.
        for (DeadlineChanged set : List.of(setA, setB)) {
            Map<String, Set<String>> ids = new TreeMap<>();
            deadlines.all(DeadlineChanged.class, e -> e.getProcessId() == set.getProcessId(), Duration.ofSeconds(3))
                    .forEach(e -> ids.computeIfAbsent(e.getBucket() + " " + e.getKind() + " " + e.getState(),
                            k -> new TreeSet<>()).add(String.valueOf(e.getHeader().getEventId())));
            System.out.printf("[crash] deadline events of process %d: %s%n", set.getProcessId(), ids);
            assertThat(ids).as("the deadline transitions of " + set.getProcessId())
                    .containsKeys(set.getBucket() + " FINISH SET", set.getBucket() + " FINISH MISSED")
                    .allSatisfy((transition, eventIds) -> assertThat(eventIds).as(transition).hasSize(1));
        }
    }

    @Test
    void aPausedBackfillStaysPausedAcrossAKillOfExecutionServiceAndFinishesOnceResumed() {
        // P feeds A, A feeds B; two days run live, then both are re-run, one entry at a time
        Job p = t.producer("day", "UTC");
        Job a = t.consumer(List.of(p.parent()), BucketTriggers.daily("each", p));
        Job b = t.consumer(List.of(a.parent()), BucketTriggers.daily("each", a));
        List<String> days = List.of("20260901", "20260902");
        days.forEach(day -> t.batch(p, day));
        await().atMost(BucketTriggers.WAIT).until(() -> t.completeBuckets(b.parent()).keySet().containsAll(days));
        String planId = BucketTriggers.ok(t.execution().body(Map.of("roots", List.of(Map.of("processId", a.parent())),
                "fromBucket", days.get(0), "toBucket", days.get(1))).post("/backfills/preview"), 201).jsonPath()
                .getString("planId");
        String path = "/backfills/" + BucketTriggers.ok(t.execution().body(Map.of("planId", planId, "concurrency", 1))
                .post("/backfills"), 202).jsonPath().getString("backfill.backfillId");
        await().atMost(BucketTriggers.WAIT).pollInterval(Duration.ofMillis(100))
                .until(() -> backfill(path).getInt("progress.succeeded") >= 1);
        BucketTriggers.ok(t.execution().post(path + "/pause"));

        stack.execution.kill();
        stack.execution.restart();
        // what was in flight at the pause ends and is recorded; nothing new starts
        try {
            await().atMost(BucketTriggers.WAIT).until(() -> backfill(path).getInt("progress.running") == 0);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("in flight after the restart: " + backfill(path).prettify() + "\nruns of A: "
                    + t.jobRuns(a.parent()) + "\nbuckets of A: " + t.execution().get("/runner/processes/"
                    + a.parent() + "/buckets").asString() + "\nruns of B: " + t.jobRuns(b.parent()), e);
        }
        int pending = backfill(path).getInt("progress.pending");
        assertThat(pending).as("entries left for after the resume").isPositive();
        await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(10))
                .until(() -> backfill(path).getInt("progress.pending") == pending);
        assertThat(backfill(path).getString("backfill.state")).isEqualTo("PAUSED");

        BucketTriggers.ok(t.execution().post(path + "/resume"));
        io.restassured.path.json.JsonPath done = await().atMost(BucketTriggers.WAIT).until(() -> backfill(path),
                j -> List.of("SUCCEEDED", "FAILED").contains(j.getString("backfill.state")));
        assertThat(done.getString("backfill.state")).as(done.prettify()).isEqualTo("SUCCEEDED");
        assertThat(done.getInt("progress.succeeded")).isEqualTo(4);
        // each entry re-ran once: two live runs and two re-runs of each job succeeded; a run the kill cut short is
        // the only other one, terminated as an orphan and retried on its own target
        for (Job job : List.of(a, b)) {
            List<Map<String, Object>> runs = t.jobRuns(job.parent());
            assertThat(runs.stream().filter(r -> "SUCCESS".equals(r.get("state")))).as("runs of %d", job.parent())
                    .hasSize(4);
            assertThat(runs.stream().filter(r -> !"SUCCESS".equals(r.get("state"))))
                    .allSatisfy(r -> assertThat((String) r.get("failureText")).contains("lease expired"));
        }
    }

    private static io.restassured.path.json.JsonPath backfill(String path) {
        return BucketTriggers.ok(t.execution().get(path)).jsonPath();
    }

    /** A parent whose hourly buckets are due {@code finishBy} after each minute's fire (UTC). */
    private static long parentWithDeadline(String finishBy) {
        RegistryFixtures.Job job = RegistryFixtures.job(stack, t.app, List.of());
        BucketTriggers.ok(given().baseUri(stack.registry.url()).contentType(ContentType.JSON)
                .body(Map.of("grain", "hour", "cron", "* * * * *", "zone", "UTC", "finishBy", finishBy))
                .put("/processes/" + job.parent() + "/deadlines"));
        return job.parent();
    }

    private static DeadlineChanged awaitDeadline(long parent, String state, Duration wait) {
        return deadlines.await(DeadlineChanged.class, e -> e.getProcessId() == parent && e.getState().equals(state),
                wait).event();
    }

    /** Every bucket so far: one trigger run, started, listing its batch; one JobStarted; the batch claimed by it. */
    private static void assertOneRunPerBucket() {
        batchOfBucket.forEach((bucket, batch) -> {
            Map<String, Object> run = t.awaitStarted(consumer.parent(), bucket);
            assertThat(t.runs(consumer.parent(), bucket)).as("trigger runs of " + bucket).hasSize(1);
            assertThat(BucketTriggers.batchesOf(run)).containsExactly(batch);
            long instance = ((Number) run.get("instanceExecId")).longValue();
            JobStarted started = lifecycle.await(JobStarted.class, e -> e.getInstanceExecId() == instance,
                    BucketTriggers.WAIT).event();
            assertThat(t.claimedBy(consumer.step(), started.getTargetBatchId())).containsExactly(batch);
        });
        // a little longer: a repeated start right behind the last one would show now
        List<JobStarted> starts = lifecycle.all(JobStarted.class, e -> e.getProcessId() == consumer.parent(),
                Duration.ofSeconds(3));
        assertThat(starts).as("one JobStarted per bucket").hasSize(batchOfBucket.size());
    }

    private static Path scriptDir() {
        try {
            return Files.createDirectories(Path.of("target", "trigger-crash-scripts").toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
