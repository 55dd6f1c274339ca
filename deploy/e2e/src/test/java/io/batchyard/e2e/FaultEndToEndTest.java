package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.events.EventHeader;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.e2e.RegistryFixtures.Job;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.ChildProcesses;
import io.batchyard.teststack.ConnectionTerminator;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.EventProbe.Received;
import io.batchyard.teststack.Management;
import io.batchyard.teststack.RestartableKafka;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Faults over the packaged services, real PostgreSQL and a real broker: a service killed with {@code kill -9}, the
 * broker stopped, the database's connections terminated over and over. After each, every fan-out the runs owe is
 * delivered exactly once (events and queue rows), every run ended, and nothing valid was dead-lettered. Each prints
 * its recovery times.
 *
 * <p>One stack serves every scenario: fifty parents with one step each, and two downstream jobs whose steps consume
 * every parent's batches, so each HaltJob owes two fan-outs. The suite owns its broker ({@link RestartableKafka}) and
 * its databases, because it stops one and terminates the other's connections.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String MARKING = "2024-07-01";
    private static final List<String> DEAD_LETTER_TOPICS = List.of("batchyard.dlq.execution-service.commands",
            "batchyard.dlq.queue-service.lifecycle", "batchyard.dlq.queue-service.objects");

    private static RestartableKafka kafka;
    private static Stack stack;
    private static List<Job> jobs;
    private static List<Long> consumers;
    private static EventProbe batches;
    private static EventProbe lifecycle;
    private static FanOutChecks fanOuts;


    /** A run of a job: its id and the target batch its HaltJob fans out. */
    private record Run(Job job, long id, long targetBatch) {
    }

    @BeforeAll
    static void start() {
        kafka = RestartableKafka.start(Stream.concat(Topics.ALL.stream(), DEAD_LETTER_TOPICS.stream()).toList());
        stack = new Stack(false, kafka.bootstrapServers(), "faults_");
        long app = registry().body(Map.of("name", "faults-" + System.nanoTime(), "description", "fault suite",
                "owner", "e2e")).post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        Instant setup = Instant.now();
        jobs = inParallel(IntStream.range(0, 50).boxed().toList(), i -> job(app, List.of()));
        List<Long> parents = jobs.stream().map(Job::parent).toList();
        consumers = Stream.of(job(app, parents), job(app, parents)).map(Job::step).toList();
        inParallel(jobs, job -> {
            RegistryFixtures.awaitKnown(stack, job.step(), job.parent(), WAIT);
            return job;
        });
        System.out.printf("[faults] stack up, %d jobs and %d downstream steps registered in %d ms%n", jobs.size(),
                consumers.size(), Duration.between(setup, Instant.now()).toMillis());
        batches = EventProbe.on(kafka.bootstrapServers(), Topics.QUEUE_BATCHES);
        lifecycle = EventProbe.on(kafka.bootstrapServers(), Topics.EXECUTION_LIFECYCLE);
        fanOuts = new FanOutChecks(batches, consumers, kafka.bootstrapServers(), FaultEndToEndTest::queue, WAIT);
    }

    @AfterAll
    static void stop() {
        ChildProcesses.closeAll("faults", batches, lifecycle, stack, kafka);
    }

    @Test
    @Order(1)
    void queueServiceKilledDuringFanOutsLosesAndRepeatsNothing() throws Exception {
        List<Run> runs = inParallel(jobs, FaultEndToEndTest::startRun);
        ExecutorService halts = Executors.newSingleThreadExecutor();
        Future<?> halting = halts.submit(() -> runs.forEach(run -> {
            haltJob(run);
            ChildProcesses.sleep(30);
        }));
        int expected = runs.size() * consumers.size();
        int beforeKill = awaitFanOuts(runs, expected / 5).size();
        Instant killed = Instant.now();
        stack.queue.kill();
        Instant restarted = Instant.now();
        stack.queue.restart();
        Instant ready = Instant.now();
        halting.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        halts.shutdown();

        List<Received<BatchEnqueued>> delivered = awaitFanOuts(runs, expected);
        // When queue-service applied a JobHalted (the event's occurredAt), not when its relay sent the event: the new
        // process first relays what the old one had committed but not yet sent, which says nothing about consuming.
        long resumed = delivered.stream().mapToLong(r -> r.event().getHeader().getOccurredAt().toEpochMilli())
                .filter(t -> t >= restarted.toEpochMilli()).min().orElse(-1);
        long last = delivered.stream().mapToLong(r -> r.event().getHeader().getOccurredAt().toEpochMilli()).max()
                .orElseThrow();
        System.out.printf("[faults] queue-service kill -9 during %d HaltJob fan-outs (%d rows owed, %d out before the "
                        + "kill): restart -> ready %d ms, restart -> first fan-out %s, kill -> last row %d ms%n",
                runs.size(), expected, beforeKill, Duration.between(restarted, ready).toMillis(),
                resumed < 0 ? "n/a (nothing was left)" : (resumed - restarted.toEpochMilli()) + " ms",
                last - killed.toEpochMilli());
        assertExactlyOnce(runs);
        assertNoRunStuck(runs);
        fanOuts.assertNoDeadLetters();
    }

    @Test
    @Order(2)
    void executionServiceKilledDuringLifecycleBurstsKeepsEventsAndStatesInStep() throws Exception {
        int drivers = 4;
        int rounds = 2;
        List<Job> burst = jobs.subList(0, 12);
        ConcurrentLinkedQueue<Run> runs = new ConcurrentLinkedQueue<>();
        AtomicInteger recovered = new AtomicInteger();
        AtomicInteger unanswered = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(drivers);
        List<Future<?>> work = new ArrayList<>();
        for (int d = 0; d < drivers; d++) {
            List<Job> mine = burst.subList(d * 3, d * 3 + 3);
            work.add(pool.submit(() -> {
                for (int round = 0; round < rounds; round++) {
                    mine.forEach(job -> runs.add(lifecycleThroughCrashes(job, recovered, unanswered)));
                }
            }));
        }
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> runs.size() >= 5);
        Instant killed = Instant.now();
        stack.execution.kill();
        stack.execution.restart();
        Instant ready = Instant.now();
        for (Future<?> f : work) {
            f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        pool.shutdown();
        List<Run> all = List.copyOf(runs);
        assertThat(all).hasSize(burst.size() * rounds);

        List<Received<BatchEnqueued>> delivered = awaitFanOuts(all, all.size() * consumers.size());
        System.out.printf("[faults] execution-service kill -9 during %d lifecycles on %d drivers: kill -> ready %d ms, "
                        + "%d calls got no answer (%d of them had taken effect, found by reading the run), kill -> last "
                        + "fan-out %d ms%n",
                all.size(), drivers, Duration.between(killed, ready).toMillis(), unanswered.get(), recovered.get(),
                delivered.stream().mapToLong(Received::timestamp).max().orElseThrow() - killed.toEpochMilli());
        // Events match states: each run and its step started and ended exactly once, as execution-service says.
        Set<Long> ids = all.stream().map(Run::id).collect(Collectors.toSet());
        lifecycle.all(JobHalted.class, e -> ids.contains(e.getInstanceExecId()), Duration.ofSeconds(1));
        for (Run run : all) {
            assertThat(eventIds(JobStarted.class, e -> e.getInstanceExecId() == run.id(), JobStarted::getHeader))
                    .as("JobStarted of run " + run.id()).hasSize(1);
            assertThat(eventIds(JobHalted.class, e -> e.getInstanceExecId() == run.id(), JobHalted::getHeader))
                    .as("JobHalted of run " + run.id()).hasSize(1);
            assertThat(eventIds(StepStarted.class, e -> e.getParentInstanceExecId() == run.id(),
                    StepStarted::getHeader)).as("StepStarted of run " + run.id()).hasSize(1);
            assertThat(eventIds(StepHalted.class, e -> e.getParentInstanceExecId() == run.id(), StepHalted::getHeader))
                    .as("StepHalted of run " + run.id()).hasSize(1);
        }
        assertExactlyOnce(all);
        assertNoRunStuck(all);
        fanOuts.assertNoDeadLetters();
    }

    @Test
    @Order(3)
    void brokerStoppedForThirtySecondsLosesNoCallAndNoEvent() {
        List<Job> outage = jobs.subList(12, 32);
        kafka.stop();
        Instant down = Instant.now();
        List<Management> services = List.of(stack.registry.management(), stack.queue.management(),
                stack.execution.management());
        // Readiness follows the broker in every service; liveness never does (nothing to restart).
        for (Management service : services) {
            await().atMost(Duration.ofSeconds(20)).until(() -> Management.status(service.ready()) == 503);
        }
        AtomicInteger calls = new AtomicInteger();
        List<Run> runs = outage.stream().map(job -> runCounting(job, calls)).toList();
        while (Duration.between(down, Instant.now()).toSeconds() < 30) {
            for (Management service : services) {
                assertThat(Management.status(service.live())).as(service + " liveness").isEqualTo(200);
            }
            ChildProcesses.sleep(1000);
        }
        for (Management service : services) {
            assertThat(Management.status(service.ready())).as(service + " readiness").isEqualTo(503);
        }
        Instant restarting = Instant.now();
        kafka.restart();
        Instant up = Instant.now();

        List<Received<BatchEnqueued>> delivered = awaitFanOuts(runs, runs.size() * consumers.size());
        Instant drained = Instant.ofEpochMilli(delivered.stream().mapToLong(Received::timestamp).max().orElseThrow());
        for (Management service : services) {
            await().atMost(Duration.ofSeconds(30)).until(() -> Management.status(service.ready()) == 200);
        }
        System.out.printf("[faults] broker stopped %d s (its restart took %d ms more): %d REST calls during the outage, "
                        + "all answered 2xx; broker up -> outbox drained and last fan-out delivered %d ms, ready again "
                        + "%d ms%n", Duration.between(down, restarting).toSeconds(),
                Duration.between(restarting, up).toMillis(), calls.get(), Duration.between(up, drained).toMillis(),
                Duration.between(up, Instant.now()).toMillis());
        assertExactlyOnce(runs);
        assertNoRunStuck(runs);
        fanOuts.assertNoDeadLetters();
    }

    /**
     * A database whose connections keep dying is a transient fault: the consumer retries the record instead of
     * dead-lettering it, so no fan-out is lost.
     */
    @Test
    @Order(4)
    void queueDatabaseConnectionsTerminatedEveryTwoHundredMillisecondsLoseNoFanOut() {
        List<Run> runs = inParallel(jobs.subList(0, 25), FaultEndToEndTest::startRun);
        List<Received<BatchEnqueued>> delivered;
        int terminated;
        Instant first;
        try (ConnectionTerminator terminator = ConnectionTerminator.every(Duration.ofMillis(200), stack.infra,
                stack.database("queue"))) {
            ChildProcesses.sleep(400);
            first = Instant.now();
            runs.forEach(FaultEndToEndTest::haltJob);
            delivered = awaitFanOuts(runs, runs.size() * consumers.size());
            terminated = terminator.terminated();
        }
        System.out.printf("[faults] queue database connections terminated every 200 ms (%d terminated) during %d "
                        + "HaltJob fan-outs: first HaltJob -> last fan-out %d ms%n", terminated, runs.size(),
                delivered.stream().mapToLong(Received::timestamp).max().orElseThrow() - first.toEpochMilli());
        assertThat(terminated).isPositive();
        assertExactlyOnce(runs);
        assertNoRunStuck(runs);
        fanOuts.assertNoDeadLetters();
    }

    // ---- driving the lifecycle -------------------------------------------------------------------------------------

    /** InitJob and the step's InitStep/HaltStep: the run waits for its HaltJob. */
    private static Run startRun(Job job) {
        Response init = execution().body(Map.of("maxBatch", 1)).post("/jobs/" + job.parent() + "/init");
        assertThat(init.statusCode()).as(init.asString()).isEqualTo(200);
        execution().post("/steps/" + job.step() + "/init").then().statusCode(200);
        execution().post("/steps/" + job.step() + "/halt").then().statusCode(200);
        return new Run(job, init.jsonPath().getLong("instanceExecId"), init.jsonPath().getLong("targetBatchId"));
    }

    private static void haltJob(Run run) {
        execution().body(Map.of("batchMarking", MARKING)).post("/jobs/" + run.job().parent() + "/halt").then()
                .statusCode(200);
    }

    /** A whole lifecycle where every call must answer 2xx; counts the calls. */
    private static Run runCounting(Job job, AtomicInteger calls) {
        Run run = startRun(job);
        haltJob(run);
        calls.addAndGet(4);
        return run;
    }

    /**
     * A whole lifecycle driven the way a workflow engine drives it while execution-service may crash: a call that got
     * no answer is settled by reading the run once the service is back (it either took effect or is made again).
     */
    private static Run lifecycleThroughCrashes(Job job, AtomicInteger recovered, AtomicInteger unanswered) {
        long[] started = new long[2];
        settle(() -> execution().body(Map.of("maxBatch", 1)).post("/jobs/" + job.parent() + "/init"), r -> {
            started[0] = r.jsonPath().getLong("instanceExecId");
            started[1] = r.jsonPath().getLong("targetBatchId");
        }, () -> {
            Response running = execution().queryParam("processId", job.parent()).queryParam("state", 2).get("/runs");
            List<Long> ids = running.jsonPath().getList("items.instanceExecId", Long.class);
            if (ids.isEmpty()) {
                return false;
            }
            started[0] = ids.get(0);
            started[1] = running.jsonPath().getLong("items[0].targetBatchId");
            return true;
        }, recovered, unanswered);
        long run = started[0];
        settle(() -> execution().post("/steps/" + job.step() + "/init"), r -> { },
                () -> stepState(run) != null, recovered, unanswered);
        settle(() -> execution().post("/steps/" + job.step() + "/halt"), r -> { },
                () -> "SUCCESS".equals(stepState(run)), recovered, unanswered);
        settle(() -> execution().body(Map.of("batchMarking", MARKING)).post("/jobs/" + job.parent() + "/halt"),
                r -> { }, () -> "SUCCESS".equals(runState(run)), recovered, unanswered);
        return new Run(job, run, started[1]);
    }

    private static void settle(Supplier<Response> call, Consumer<Response> onSuccess,
                               BooleanSupplier tookEffect, AtomicInteger recovered, AtomicInteger unanswered) {
        for (int attempt = 1; ; attempt++) {
            Response r;
            try {
                r = call.get();
            } catch (Exception noAnswer) {
                r = null;
            }
            if (r != null && r.statusCode() / 100 == 2) {
                onSuccess.accept(r);
                return;
            }
            Response answer = r;
            assertThat(answer == null || answer.statusCode() >= 500)
                    .as(() -> "answer " + answer.statusCode() + ": " + answer.asString()).isTrue();
            assertThat(attempt).as("attempts").isLessThan(6);
            unanswered.incrementAndGet();
            awaitReady(stack.execution);
            if (tookEffect.getAsBoolean()) {
                recovered.incrementAndGet();
                return;
            }
        }
    }

    private static void awaitReady(ServiceProcess service) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> Management.status(service.management().ready()) == 200);
    }

    private static String runState(long run) {
        return execution().get("/runs/" + run).then().statusCode(200).extract().jsonPath().getString("run.state");
    }

    private static String stepState(long run) {
        List<String> states = execution().get("/runs/" + run).then().statusCode(200).extract().jsonPath()
                .getList("steps.state", String.class);
        return states.isEmpty() ? null : states.get(0);
    }

    // ---- what must hold after every fault --------------------------------------------------------------------------

    /** Waits until at least {@code count} of the runs' fan-outs were published; returns every one read so far. */
    private static List<Received<BatchEnqueued>> awaitFanOuts(Collection<Run> runs, int count) {
        return fanOuts.await(targets(runs), count);
    }

    private static void assertExactlyOnce(Collection<Run> runs) {
        int copies = fanOuts.assertExactlyOnce(targets(runs));
        if (copies > 0) {
            System.out.printf("[faults]   (%d re-sent copies of already published events, dropped by consumers' "
                    + "ledgers)%n", copies);
        }
    }

    private static void assertNoRunStuck(Collection<Run> runs) {
        FanOutChecks.assertRunsEnded(FaultEndToEndTest::execution, runs.stream().map(Run::id).toList(),
                runs.stream().map(r -> r.job().parent()).collect(Collectors.toSet()));
    }

    /** Distinct event ids of the lifecycle events read so far that match. */
    private static <T extends SpecificRecord> Set<String> eventIds(Class<T> type, Predicate<T> match,
                                                                  Function<T, EventHeader> header) {
        return lifecycle.received(type, match).stream().map(r -> header.apply(r.event()).getEventId())
                .collect(Collectors.toSet());
    }

    private static Set<Long> targets(Collection<Run> runs) {
        return runs.stream().map(Run::targetBatch).collect(Collectors.toSet());
    }

    // ---- fixtures --------------------------------------------------------------------------------------------------

    private static Job job(long app, List<Long> enqueuers) {
        return RegistryFixtures.job(stack, app, enqueuers);
    }

    /** Independent calls (other jobs, other runs) made four at a time; results in input order. */
    private static <T, R> List<R> inParallel(List<T> inputs, Function<T, R> call) {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<R>> futures = inputs.stream().map(i -> pool.submit(() -> call.apply(i))).toList();
            List<R> results = new ArrayList<>();
            for (Future<R> f : futures) {
                results.add(f.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            }
            return results;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
    }

    private static RequestSpecification registry() {
        return given().baseUri(stack.registry.url()).contentType(ContentType.JSON);
    }

    private static RequestSpecification execution() {
        return given().baseUri(stack.execution.url()).contentType(ContentType.JSON);
    }

    private static RequestSpecification queue() {
        return given().baseUri(stack.queue.url()).contentType(ContentType.JSON);
    }
}
