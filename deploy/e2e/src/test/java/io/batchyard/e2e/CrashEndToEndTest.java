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
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Exactly once across crashes, with {@code kill -9} and a start again:
 * <ul>
 * <li>triggers: execution-service, and separately queue-service, killed at points between an input's arrival and its
 * run's start (right after the batch was enqueued, while the trigger's decisions of a burst are committing). Every
 * bucket ends with one trigger run, one JobStarted and its batch claimed by that run alone;</li>
 * <li>deadlines: execution-service killed between a deadline's SET and its time. The deadline is MISSED on time by the
 * restarted service, and each of its events is on the topic once.</li>
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
        Stream.<AutoCloseable>of(lifecycle, deadlines, stack, kafka).filter(Objects::nonNull).forEach(c -> {
            try {
                c.close();
            } catch (Exception e) {
                System.err.println("[crash] closing " + c + ": " + e);
            }
        });
    }

    @Test
    void executionServiceKilledRightAfterAnInputIsEnqueuedStartsItsRunOnceAfterRestart() {
        // the later kills come while the trigger consumer has the event, is deciding or has just committed
        for (int delayMs : new int[] {0, 30, 100, 300}) {
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
        for (int delayMs : new int[] {0, 20, 100}) {
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
    void executionServiceKilledBetweenADeadlinesSetAndItsTimeEmitsEachOfItsEventsOnce() {
        // real time, no run at all: an hourly bucket is expected at each minute's fire (the first fire of an hour
        // ends the hour before) and must be finished 40 s after that fire
        RegistryFixtures.Job job = RegistryFixtures.job(stack, t.app, List.of());
        BucketTriggers.ok(given().baseUri(stack.registry.url()).contentType(ContentType.JSON)
                .body(Map.of("grain", "hour", "cron", "* * * * *", "zone", "UTC", "finishBy", "PT40S"))
                .put("/processes/" + job.parent() + "/deadlines"));
        DeadlineChanged set = deadlines.await(DeadlineChanged.class, e -> e.getProcessId() == job.parent()
                && e.getState().equals("SET"), BucketTriggers.WAIT).event();
        Instant due = set.getDueAt();
        System.out.printf("[crash] deadline %d of bucket %s SET, due at %s: killing execution-service%n",
                set.getDeadlineId(), set.getBucket(), due);
        stack.execution.kill();
        stack.execution.restart();
        assertThat(Instant.now()).as("execution-service was back before the deadline").isBefore(due);

        DeadlineChanged missed = deadlines.await(DeadlineChanged.class, e -> e.getDeadlineId() == set.getDeadlineId()
                && e.getState().equals("MISSED"), Duration.between(Instant.now(), due).plusSeconds(30)).event();
        long lateMs = Duration.between(due, missed.getHeader().getOccurredAt()).toMillis();
        System.out.printf("[crash] deadline %d MISSED %d ms after its time%n", set.getDeadlineId(), lateMs);
        // the 2 s bound is DeadlineRunTest's and the bench's: here a JVM just restarted shares the machine with others
        assertThat(lateMs).as("MISSED after the deadline, by the restarted service").isBetween(0L, 15_000L);
        // each of the parent's deadline events once (the hour's later fires end the same bucket: no new deadline)
        List<String> events = deadlines.all(DeadlineChanged.class, e -> e.getProcessId() == job.parent(),
                Duration.ofSeconds(3)).stream().map(e -> e.getBucket() + " " + e.getKind() + " " + e.getState())
                .toList();
        assertThat(events).as("the parent's deadline events").doesNotHaveDuplicates()
                .contains(set.getBucket() + " FINISH SET", set.getBucket() + " FINISH MISSED");
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
