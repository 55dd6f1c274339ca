package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.api.clock.ClockControl;
import io.batchyard.events.execution.DeadlineChanged;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.clock.ServiceClock;
import io.batchyard.execution.deadline.DeadlineWatch;
import io.batchyard.persistence.Blocking;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Data deadlines on the movable clock, against the real database, broker and runner: a deadline falls whether or not
 * a run exists, in its zone's local time, once; a late finish recovers it; the estimate warns ahead naming the
 * upstream process the bucket waits for; backfilled buckets raise nothing.
 */
@ExecutionTest
class DeadlineRunTest extends RunnerTestSupport {

    private static final Duration WAIT = RunnerFixtures.WAIT;

    @Inject
    ServiceClock clock;

    @Inject
    DeadlineWatch watch;

    private final List<ProcessTrees> withDeadlines = new ArrayList<>();

    @AfterEach
    void withdrawAndResetTheClock() {
        // the promises are withdrawn (their open deadlines WAIVED) so that later tests moving the clock meet none
        for (ProcessTrees tree : withDeadlines) {
            f.register(tree.withoutDeadlines());
        }
        clock.reset();
    }

    @Test
    void aBucketWithNoRunAtAllIsMissedAtSixInBerlinWithinTwoSecondsOnTheTwentyThreeHourDay() {
        move("2026-03-29T10:00:00Z"); // noon in Berlin on the day the clocks go forward
        long p = job(tree -> tree.deadlines("day", null, "Europe/Berlin", null, "PT6H", null));
        try (EventProbe probe = EventProbe.on(bootstrap, Topics.EXECUTION_DEADLINES)) {
            DeadlineChanged set = probe.await(DeadlineChanged.class, of(p, "20260329", "FINISH", "SET"), WAIT).event();
            Instant due = Instant.parse("2026-03-30T04:00:00Z"); // 06:00 CEST after a 23-hour day
            assertThat(set.getDueAt()).isEqualTo(due);
            move("2026-03-30T03:59:57Z");
            EventProbe.Received<DeadlineChanged> missed = probe.await(DeadlineChanged.class,
                    of(p, "20260329", "FINISH", "MISSED"), WAIT);
            // the record's time on the service clock: its producer timestamp shifted by the clock's offset
            Instant published = Instant.ofEpochMilli(missed.timestamp()).plus(offset());
            assertThat(published).isAfterOrEqualTo(due).isBefore(due.plusSeconds(2));
            assertThat(missed.event().getPreviousState()).isEqualTo("SET");
            Instant decided = Instant.parse(given().get("/deadlines/" + set.getDeadlineId()).then().statusCode(200)
                    .body("state", equalTo("MISSED")).extract().jsonPath().getString("decidedAt"));
            assertThat(decided).isAfterOrEqualTo(due).isBefore(due.plusSeconds(2));
        }
    }

    @Test
    void aLateFinishRecoversAndARunOverItsMaxRuntimeIsMissedWhileRunningOnTheTwentyFiveHourDay() {
        move("2026-10-25T10:00:00Z"); // the day the clocks go back
        long p = job(tree -> tree.deadlines("day", null, "Europe/Berlin", null, "PT6H", "PT1M"));
        try (EventProbe probe = EventProbe.on(bootstrap, Topics.EXECUTION_DEADLINES)) {
            DeadlineChanged finish = probe.await(DeadlineChanged.class, of(p, "20261025", "FINISH", "SET"), WAIT)
                    .event();
            assertThat(finish.getDueAt()).isEqualTo(Instant.parse("2026-10-26T05:00:00Z")); // 06:00 CET, 25 h later
            long runtime = probe.await(DeadlineChanged.class, of(p, "20261025", "RUNTIME", "SET"), WAIT).event()
                    .getDeadlineId();

            move("2026-10-26T05:00:01Z");
            probe.await(DeadlineChanged.class, of(p, "20261025", "FINISH", "MISSED"), WAIT);

            f.bucket(p, "20261025");
            Launcher.Cycle cycle = launcher.claim(p, LocalDateTime.of(2026, 10, 26, 6, 0), "deadline-test");
            assertThat(cycle.claimed().orElseThrow().buckets()).containsExactly("20261025");
            // the run's clock starts when the watch sees it running; a minute later it is over its max runtime
            await().atMost(WAIT).until(() -> given().get("/deadlines/" + runtime).then().extract().jsonPath()
                    .getString("dueAt") != null);
            Instant runtimeDue = Instant.parse(given().get("/deadlines/" + runtime).then().extract().jsonPath()
                    .getString("dueAt"));
            move(runtimeDue.plusSeconds(1).toString());
            probe.await(DeadlineChanged.class, of(p, "20261025", "RUNTIME", "MISSED"), WAIT);
            assertThat(f.status(p, "20261025")).isEqualTo("RUNNING");

            launcher.execute(cycle.claimed().orElseThrow(), "deadline-test");
            assertThat(f.status(p, "20261025")).isEqualTo("COMPLETE");
            probe.await(DeadlineChanged.class, of(p, "20261025", "FINISH", "RECOVERED"), WAIT);
            probe.await(DeadlineChanged.class, of(p, "20261025", "RUNTIME", "RECOVERED"), WAIT);
            assertThat(probe.all(DeadlineChanged.class, e -> e.getProcessId() == p
                    && e.getBucket().equals("20261025"), Duration.ofSeconds(2)))
                    .extracting(e -> e.getKind() + " " + e.getState())
                    .containsExactly("FINISH SET", "RUNTIME SET", "FINISH MISSED", "RUNTIME MISSED",
                            "FINISH RECOVERED", "RUNTIME RECOVERED");
        }
    }

    @Test
    void atRiskFifteenMinutesAheadOrMoreNamesTheUnfinishedUpstreamAndWhyItIsNotRunning() {
        move("2026-03-10T11:00:00Z");
        long upstream = job(tree -> tree);
        long downstream = RunnerFixtures.id(), step = RunnerFixtures.id();
        String record = f.script("b" + downstream + ".sh", "true");
        ProcessTrees b = ProcessTrees.parent(downstream).workflowType(2).next(step)
                .step(step, st -> st.enqueuedBy(upstream).property("script", "run", record).next(downstream))
                .deadlines("day", null, "Europe/Berlin", null, "PT6H", null);
        f.register(b);
        withDeadlines.add(b);
        // history: the upstream parent typically takes three hours, the downstream one an hour
        for (int i = 0; i < 3; i++) {
            execute("INSERT INTO instance_exec (process_id, start_ts, end_ts, exec_state)"
                    + " VALUES (?, now() - interval '3 hours', now(), 3)", upstream);
            execute("INSERT INTO instance_exec (process_id, start_ts, end_ts, exec_state)"
                    + " VALUES (?, now() - interval '1 hour', now(), 3)", downstream);
        }
        try (EventProbe probe = EventProbe.on(bootstrap, Topics.EXECUTION_DEADLINES)) {
            DeadlineChanged set = probe.await(DeadlineChanged.class, of(downstream, "20260310", "FINISH", "SET"), WAIT)
                    .event();
            Instant due = set.getDueAt();
            // four hours of work left and nineteen hours to go: on track
            assertThat(probe.all(DeadlineChanged.class, e -> e.getDeadlineId() == set.getDeadlineId()
                    && e.getState().equals("AT_RISK"), Duration.ofSeconds(3))).isEmpty();
            // 02:30 in Berlin: four hours of work left, three and a half to the deadline
            move("2026-03-11T01:30:00Z");
            EventProbe.Received<DeadlineChanged> risk = probe.await(DeadlineChanged.class,
                    e -> e.getDeadlineId() == set.getDeadlineId() && e.getState().equals("AT_RISK"), WAIT);
            Instant raised = Instant.ofEpochMilli(risk.timestamp()).plus(offset());
            assertThat(Duration.between(raised, due)).isGreaterThanOrEqualTo(Duration.ofMinutes(15));
            assertThat(risk.event().getBlockerProcessId()).isEqualTo(upstream);
            assertThat(risk.event().getBlockerReason()).startsWith("process " + upstream + ": ").contains("(");
            assertThat(risk.event().getEta()).isAfter(due);
            given().queryParam("state", "AT_RISK").queryParam("processId", downstream).get("/deadlines").then()
                    .statusCode(200).body("total", equalTo(1)).body("items[0].blockerProcessId",
                            equalTo((int) upstream));
        }
    }

    @Test
    void concurrentChecksFireEachDeadlineOnceAndADowntimesMissesAreEmittedOnRecovery() {
        move("2026-03-10T11:00:00Z");
        long p = job(tree -> tree.deadlines("day", null, "Europe/Berlin", "PT1H", null, null));
        try (EventProbe probe = EventProbe.on(bootstrap, Topics.EXECUTION_DEADLINES)) {
            probe.await(DeadlineChanged.class, of(p, "20260310", "START", "SET"), WAIT);
            // a week without the service: its first checks catch up every bucket of it, each SET then MISSED
            move("2026-03-17T12:00:00Z");
            List<CompletableFuture<Integer>> checks = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                checks.add(CompletableFuture.supplyAsync(() -> Blocking.await(() -> watch.checkOnce())));
            }
            checks.forEach(CompletableFuture::join);
            probe.await(DeadlineChanged.class, of(p, "20260316", "START", "MISSED"), WAIT);
            List<String> seen = probe.all(DeadlineChanged.class, e -> e.getProcessId() == p, Duration.ofSeconds(3))
                    .stream().map(e -> e.getBucket() + " " + e.getState()).toList();
            List<String> expected = new ArrayList<>();
            for (int day = 10; day <= 17; day++) {
                expected.add("202603" + day + " SET");
            }
            for (int day = 10; day <= 16; day++) {
                expected.add("202603" + day + " MISSED");
            }
            // each transition once, whichever check won it; the 17th is not due before 01:00 on the 18th
            assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(seen.indexOf("20260310 SET")).isLessThan(seen.indexOf("20260310 MISSED"));
        }
    }

    @Test
    void backfilledBucketsRaiseNothingAndAnOperatorWaivesWithAReason() {
        move("2026-03-10T11:00:00Z");
        long p = job(tree -> tree.deadlines("day", null, "Europe/Berlin", "PT1H", "PT6H", null));
        try (EventProbe probe = EventProbe.on(bootstrap, Topics.EXECUTION_DEADLINES)) {
            probe.await(DeadlineChanged.class, of(p, "20260310", "FINISH", "SET"), WAIT);
            given().contentType(ContentType.JSON).body(Map.of("from", "20260301", "to", "20260303"))
                    .post("/runner/processes/" + p + "/backfill").then().statusCode(200).body("added", equalTo(3));
            for (int i = 0; i < 3; i++) {
                launcher.runOnce(p, LocalDateTime.of(2026, 3, 10, 12, 0));
            }
            assertThat(f.status(p, "20260303")).isEqualTo("COMPLETE");
            assertThat(probe.all(DeadlineChanged.class, e -> e.getProcessId() == p, Duration.ofSeconds(3)))
                    .extracting(DeadlineChanged::getBucket).containsOnly("20260310");
            given().queryParam("processId", p).get("/deadlines").then().statusCode(200).body("total", equalTo(2));

            long start = probe.await(DeadlineChanged.class, of(p, "20260310", "START", "SET"), WAIT).event()
                    .getDeadlineId();
            given().contentType(ContentType.JSON).body(Map.of("reason", " ")).post("/deadlines/" + start + "/waive")
                    .then().statusCode(400);
            given().contentType(ContentType.JSON).body(Map.of("reason", "source system outage, agreed with sales"))
                    .post("/deadlines/" + start + "/waive").then().statusCode(200).body("state", equalTo("WAIVED"));
            DeadlineChanged waived = probe.await(DeadlineChanged.class, of(p, "20260310", "START", "WAIVED"), WAIT)
                    .event();
            assertThat(waived.getReason()).isEqualTo("source system outage, agreed with sales");
            assertThat(waived.getHeader().getActor()).isNotNull();
            given().contentType(ContentType.JSON).body(Map.of("reason", "again")).post("/deadlines/" + start + "/waive")
                    .then().statusCode(409).body("code", equalTo(441));
            given().get("/deadlines/999999999").then().statusCode(404).body("code", equalTo(440));
            given().queryParam("state", "LATE").get("/deadlines").then().statusCode(400).body("code", equalTo(442));
        }
    }

    /** A stand-alone parent of one step that succeeds, with what {@code configure} adds (its deadlines). */
    private long job(java.util.function.UnaryOperator<ProcessTrees> configure) {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        String script = f.script("ok" + p + ".sh", "true");
        ProcessTrees tree = configure.apply(ProcessTrees.parent(p).workflowType(2).next(s)
                .step(s, st -> st.property("script", "run", script).next(p)));
        f.register(tree);
        f.policy(p, Map.of("bucket", "YYYYMMDD"));
        withDeadlines.add(tree);
        return p;
    }

    private static Predicate<DeadlineChanged> of(long p, String bucket, String kind, String state) {
        return e -> e.getProcessId() == p && e.getBucket().equals(bucket) && e.getKind().equals(kind)
                && e.getState().equals(state);
    }

    /** Shifts the clock so that it reads {@code instant} now (to the second) and keeps running from there. */
    private void move(String instant) {
        clock.move(new ClockControl.Move(Duration.between(Instant.now(), Instant.parse(instant)).toSeconds(), null));
    }

    /** How far the service clock is ahead of the real one. */
    private Duration offset() {
        return Duration.between(Instant.now(), clock.instant());
    }
}
