package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.execution.schedule.RunnerScheduler;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.Infrastructure;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Bucket selection, dependencies, schedules, exclusive claims and the REST contract of the runner. */
@ExecutionTest
class RunnerPolicyTest extends RunnerTestSupport {

    @Inject
    RunnerScheduler scheduler;


    /** A one-step stand-alone parent whose step appends its arguments to {@code calls-<parent>}. */
    private long oneStepJob(Map<String, Object> policy) {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        String record = f.script("record" + p + ".sh", "echo \"$*\" >> " + f.file("calls-" + p));
        f.register(ProcessTrees.parent(p).workflowType(2).next(s).step(s, st -> st.property("script", "run", record).next(p)));
        f.policy(p, policy);
        return p;
    }

    @Test
    void oldestBucketFirstThenBatchThenExactMatch() {
        long oldest = oneStepJob(Map.of("bucket", "YYYYMMDD"));
        f.bucket(oldest, "20240228");
        f.bucket(oldest, "20240229");
        assertThat(launcher.runOnce(oldest, NOW).outcome().orElseThrow().buckets()).containsExactly("20240228");
        assertThat(launcher.runOnce(oldest, NOW).outcome().orElseThrow().buckets()).containsExactly("20240229");
        // the clock's own period was recorded by the first cycle and runs last
        assertThat(launcher.runOnce(oldest, NOW).outcome().orElseThrow().buckets()).containsExactly("20240301");
        assertThat(launcher.runOnce(oldest, NOW).claimed()).isEmpty();
        assertThat(f.lines("calls-" + oldest)).containsExactly("20240228", "20240229", "20240301");

        long batch = oneStepJob(Map.of("bucket", "YYYYMMDDHH", "batch", true, "maxBatchSize", 3));
        for (String h : List.of("2024030107", "2024030101", "2024030104", "2024030103")) {
            f.bucket(batch, h);
        }
        WorkflowExecution.Outcome one = launcher.runOnce(batch, NOW).outcome().orElseThrow();
        assertThat(one.buckets()).containsExactly("2024030101", "2024030103", "2024030104");
        assertThat(f.lines("calls-" + batch)).containsExactly("2024030101 2024030103 2024030104");
        assertThat(f.status(batch, "2024030104")).isEqualTo("COMPLETE");
        assertThat(f.status(batch, "2024030107")).isEqualTo("INIT");

        long exact = oneStepJob(Map.of("bucket", "YYYYMMDD", "exactMatch", true, "schedule", Map.of("cron", "0 1 * * *")));
        f.bucket(exact, "20240227");
        Launcher.Cycle nothing = launcher.runOnce(exact, NOW);
        assertThat(nothing.claimed()).isEmpty();
        assertThat(nothing.plan().reasons()).extracting(Planner.Reason::code).containsExactly("NOT_CURRENT_PERIOD");
        f.bucket(exact, "20240301");
        assertThat(launcher.runOnce(exact, NOW).outcome().orElseThrow().buckets()).containsExactly("20240301");
        assertThat(f.status(exact, "20240227")).isEqualTo("INIT");
    }

    @Test
    void dependenciesOnAParentBucketAndOnAScriptMustAllHold() {
        long upstream = oneStepJob(Map.of());
        String gate = f.file("gate-open").toString();
        String check = f.script("check.sh", "echo \"checked $*\" >> " + f.file("checks") + "; test -f " + gate);
        long down = oneStepJob(Map.of("dependencies", List.of(Map.of("processId", upstream), Map.of("script", check))));
        f.bucket(down, "20240229");

        Launcher.Cycle blocked = launcher.runOnce(down, NOW);
        assertThat(blocked.claimed()).isEmpty();
        assertThat(blocked.plan().reasons()).extracting(Planner.Reason::message).anyMatch(m ->
                m.contains("bucket 20240229 of process " + upstream + " is absent"));
        given().queryParam("bucket", "20240229").get("/why/" + down).then().statusCode(200)
                .body("wouldRun", equalTo(false)).body("reasons.code", hasItem("UNMET_DEPENDENCY"));

        f.bucket(upstream, "20240229");
        assertThat(launcher.runOnce(upstream, NOW).outcome().orElseThrow().bucketState()).isEqualTo(State.COMPLETE);
        Launcher.Cycle stillBlocked = launcher.runOnce(down, NOW);
        assertThat(stillBlocked.claimed()).isEmpty();
        assertThat(stillBlocked.plan().reasons()).extracting(Planner.Reason::message)
                .containsExactly("check " + check + " 20240229 says not yet (exit code 1)");
        assertThat(f.lines("checks")).contains("checked 20240229");

        f.script("gate-open", "");
        assertThat(launcher.runOnce(down, NOW).outcome().orElseThrow().bucketState()).isEqualTo(State.COMPLETE);
        given().queryParam("bucket", "20240229").get("/why/" + down).then().statusCode(200)
                .body("reasons.code", hasItem("BUCKET_COMPLETE"));
    }

    @Test
    void schedulesFireOncePerDueTimeAndBackfillLeavesCompletedBucketsAlone() {
        long p = oneStepJob(Map.of("bucket", "YYYYMMDDHH", "schedule", Map.of("cron", "0 * * * *", "timeZone", "UTC")));
        execute("UPDATE runner_schedule SET last_fired_at = ? WHERE process_id = ?",
                java.time.OffsetDateTime.parse("2024-03-01T04:59:00Z"), p);
        scheduler.fireSchedules(Instant.parse("2024-03-01T07:30:00Z"));
        scheduler.fireSchedules(Instant.parse("2024-03-01T07:45:00Z"));
        List<String> buckets = given().get("/runner/processes/" + p + "/buckets").then().statusCode(200)
                .body("total", equalTo(3)).extract().jsonPath().getList("items.bucket");
        assertThat(buckets).containsExactly("2024030107", "2024030106", "2024030105");
        // a scheduled job records buckets only when its schedule fires, never from the clock at cycle time
        assertThat(launcher.runOnce(p, NOW).outcome().orElseThrow().buckets()).containsExactly("2024030105");

        given().contentType(ContentType.JSON).body(Map.of("from", "2024030104", "to", "2024030106"))
                .post("/runner/processes/" + p + "/backfill").then().statusCode(200)
                .body("added", equalTo(1)).body("alreadyKnown", equalTo(2));
        assertThat(f.status(p, "2024030105")).isEqualTo("COMPLETE");
        assertThat(f.status(p, "2024030104")).isEqualTo("INIT");

        // a schedule years behind (a long outage, a clock moved far) catches up a bounded number of fires per tick,
        // oldest first, and the tick ends
        long behind = oneStepJob(Map.of("bucket", "YYYYMMDDHH", "schedule", Map.of("cron", "0 * * * *", "timeZone", "UTC")));
        execute("UPDATE runner_schedule SET last_fired_at = ? WHERE process_id = ?",
                java.time.OffsetDateTime.parse("2001-01-01T00:00:00Z"), behind);
        scheduler.fireSchedules(Instant.parse("2024-03-01T07:30:00Z"));
        given().queryParam("limit", 1).get("/runner/processes/" + behind + "/buckets").then().statusCode(200)
                .body("total", equalTo(1000));
        execute("DELETE FROM runner_schedule WHERE process_id = ?", behind);
    }

    @Test
    void theServiceClockMovedOverTheAdminApiDrivesCronSchedulesAndBucketPeriods() {
        // In 2001, before every other test's schedule last fired: moving there fires only this test's schedule.
        given().contentType(ContentType.JSON).body(Map.of("instant", "2001-01-01T00:30:00Z")).put("/admin/clock")
                .then().statusCode(200).body("moved", equalTo(true)).body("now", equalTo("2001-01-01T00:30:00Z"));
        long cron = 0;
        try {
            cron = oneStepJob(Map.of("bucket", "YYYYMMDDHH", "schedule", Map.of("cron", "0 * * * *",
                    "timeZone", "UTC")));
            assertThat(scheduler.fireSchedules()).as("a new schedule counts from the moved now").isZero();
            given().contentType(ContentType.JSON).body(Map.of("instant", "2001-01-01T03:10:00Z")).put("/admin/clock")
                    .then().statusCode(200);
            assertThat(scheduler.fireSchedules()).isEqualTo(3);
            assertThat(given().get("/runner/processes/" + cron + "/buckets").then().statusCode(200).extract()
                    .jsonPath().getList("items.bucket", String.class))
                    .containsExactly("2001010103", "2001010102", "2001010101");

            // a date-pattern job's current period is the moved clock's day, as /why (and a cycle) sees it
            long daily = oneStepJob(Map.of("bucket", "YYYYMMDD"));
            given().queryParam("bucket", "20010101").get("/why/" + daily).then().statusCode(200)
                    .body("reasons.code", not(hasItem("NO_SUCH_BUCKET")));
            given().queryParam("bucket", "20010102").get("/why/" + daily).then().statusCode(200)
                    .body("reasons.code", hasItem("NO_SUCH_BUCKET"));
            given().contentType(ContentType.JSON).body(Map.of("offsetSeconds", 0)).put("/admin/clock")
                    .then().statusCode(200).body("moved", equalTo(false));
            given().contentType(ContentType.JSON).body(Map.of("offsetSeconds", 60, "instant", "2001-01-01T00:00:00Z"))
                    .put("/admin/clock").then().statusCode(400).body("code", equalTo(429));
        } finally {
            given().delete("/admin/clock").then().statusCode(200).body("moved", equalTo(false));
            // its schedule last fired in 2001: left enabled, every later tick of the other tests would catch it up
            execute("DELETE FROM runner_schedule WHERE process_id = ?", cron);
        }
    }

    @Test
    void twoRunnersRacingForOneBucketRunItOnce() throws Exception {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        String slow = f.script("once" + p + ".sh", "echo run >> " + f.file("once-" + p) + "; sleep 1");
        f.register(ProcessTrees.parent(p).workflowType(2).next(s).step(s, st -> st.property("script", "run", slow).next(p)));
        f.policy(p, Map.of());
        f.bucket(p, "b1");
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Launcher.Cycle>> racers = new ArrayList<>();
        for (String runner : List.of("runner-a", "runner-b", "runner-c")) {
            racers.add(CompletableFuture.supplyAsync(() -> {
                await(go);
                return launcher.runOnce(p, NOW, runner);
            }));
        }
        go.countDown();
        List<Launcher.Cycle> cycles = racers.stream().map(CompletableFuture::join).toList();
        assertThat(cycles.stream().filter(c -> c.outcome().isPresent())).hasSize(1);
        assertThat(f.lines("once-" + p)).containsExactly("run");
        assertThat(f.status(p, "b1")).isEqualTo("COMPLETE");
    }

    @Test
    void aDeadRunnersExpiredLeaseIsTakenOverAndItsRunResumed() {
        long p = RunnerFixtures.id(), s1 = RunnerFixtures.id(), s2 = RunnerFixtures.id();
        String step = f.script("step" + p + ".sh", "echo \"$BATCHYARD_PROCESS_ID\" >> " + f.file("steps-" + p));
        f.register(ProcessTrees.parent(p).workflowType(2).next(s1)
                .step(s1, st -> st.property("script", "run", step).next(s2))
                .step(s2, st -> st.property("script", "run", step).next(p)));
        f.policy(p, Map.of());
        f.bucket(p, "b1");
        // runner-dead claims, starts the run and step s1, then dies without a trace but its lease
        assertThat(launcher.claim(p, NOW, "runner-dead").claimed()).isPresent();
        long dead = given().contentType(ContentType.JSON).body(Map.of()).post("/jobs/" + p + "/init").then()
                .statusCode(200).extract().jsonPath().getLong("instanceExecId");
        given().contentType(ContentType.JSON).post("/steps/" + s1 + "/init").then().statusCode(200);
        assertThat(launcher.runOnce(p, NOW, "runner-live").plan().reasons()).extracting(Planner.Reason::code)
                .containsExactly("ALREADY_RUNNING");
        execute("UPDATE runner_lease SET lease_until = now() - interval '1 second' WHERE process_id = ?", p);

        WorkflowExecution.Outcome outcome = launcher.runOnce(p, NOW, "runner-live").outcome().orElseThrow();
        assertThat(outcome.bucketState()).as(outcome.message()).isEqualTo(State.COMPLETE);
        assertThat(outcome.buckets()).containsExactly("b1");
        assertThat(f.lines("steps-" + p)).containsExactly(String.valueOf(s1), String.valueOf(s2));
        // the dead runner's run failed without a code: none of its commands reported how it ended
        given().get("/runs/" + dead).then().body("run.state", equalTo("FAILED"))
                .body("run.failureCode", nullValue())
                .body("run.failureText", equalTo("the runner that ran it (runner-dead) stopped; its lease expired"));
    }

    @Test
    void theRestContractRejectsBadPoliciesWithCodes() {
        long oozie = RunnerFixtures.id(), step = RunnerFixtures.id();
        f.register(ProcessTrees.parent(oozie).next(step).step(step, s -> s.next(oozie)));
        given().contentType(ContentType.JSON).body(Map.of()).put("/runner/processes/" + oozie).then().statusCode(409)
                .contentType("application/problem+json").body("code", equalTo(408));
        long p = oneStepJob(Map.of());
        given().contentType(ContentType.JSON).body(Map.of("schedule", Map.of("cron", "every day")))
                .put("/runner/processes/" + p).then().statusCode(400).body("code", equalTo(404));
        given().contentType(ContentType.JSON).body(Map.of("bucket", "NextFullMoon")).put("/runner/processes/" + p)
                .then().statusCode(400).body("code", equalTo(404));
        given().contentType(ContentType.JSON).body(Map.of("dependencies", List.of(Map.of("processId", p))))
                .put("/runner/processes/" + p).then().statusCode(400).body("code", equalTo(404));
        given().contentType(ContentType.JSON).body(Map.of("stepConcurrency", 0)).put("/runner/processes/" + p)
                .then().statusCode(400);
        given().contentType(ContentType.JSON).body(Map.of("from", "20240101", "to", "20240102"))
                .post("/runner/processes/" + p + "/backfill").then().statusCode(400).body("code", equalTo(406));
        given().post("/runner/processes/" + p + "/buckets/nope/retry").then().statusCode(409).body("code", equalTo(407));
        given().get("/runner/processes/" + RunnerFixtures.id()).then().statusCode(404).body("code", equalTo(405));
        given().get("/runs/987654321/log").then().statusCode(404).body("code", equalTo(409));

        given().contentType(ContentType.JSON).body(Map.of("enabled", false)).put("/runner/processes/" + p).then()
                .statusCode(200).body("enabled", equalTo(false));
        given().get("/why/" + p).then().statusCode(200).body("reasons.code", hasItem("DISABLED"));
        given().post("/runner/processes/" + p + "/launch").then().statusCode(200).body("started", equalTo(false));
    }

    /**
     * PWM groups: the steps of one parent as independent jobs. A job without settings runs the run's bucket; a
     * disabled one is skipped (and /why says so); one takes its buckets from a query on the read-only bucket datasource
     * (oldest first, with its own hooks); one whose own dependency is unmet is skipped while its siblings run.
     */
    @Test
    void groupJobsHaveTheirOwnBucketsDependenciesHooksAndEnableFlag() {
        long p = RunnerFixtures.id(), plain = RunnerFixtures.id(), off = RunnerFixtures.id(), sql = RunnerFixtures.id(),
                gated = RunnerFixtures.id();
        String table = "pwm_keys_" + p;
        execute("CREATE TABLE " + table + " (k text)");
        execute("INSERT INTO " + table + " VALUES ('K2'), ('K1'), (NULL), ('  ')");
        String record = f.script("group" + p + ".sh", "echo \"$BATCHYARD_PROCESS_ID $*\" >> " + f.file("calls"));
        String done = f.script("done" + p + ".sh", "echo \"done $BATCHYARD_PROCESS_ID $BATCHYARD_BUCKET\" >> " + f.file("hooks"));
        f.register(ProcessTrees.parent(p).workflowType(2).next(plain)
                .step(plain, st -> st.property("script", "run", record).next(off))
                .step(off, st -> st.property("script", "run", record).next(sql))
                .step(sql, st -> st.property("script", "run", record).next(gated))
                .step(gated, st -> st.property("script", "run", record).next(p)));
        f.policy(p, Map.of("bucket", "YYYYMMDD"));
        String job = "/runner/processes/" + p + "/steps/";
        given().get(job + plain).then().statusCode(200).body("ownSettings", equalTo(false))
                .body("bucketSource", equalTo("INHERIT")).body("enabled", equalTo(true));
        given().contentType(ContentType.JSON).body(Map.of("enabled", false)).put(job + off).then().statusCode(200)
                .body("ownSettings", equalTo(true)).body("enabled", equalTo(false));
        given().contentType(ContentType.JSON).body(Map.of("bucketSql", "SELECT k FROM " + table, "dependencies", List.of(),
                "hooks", Map.of("onSuccess", done))).put(job + sql).then().statusCode(200)
                .body("bucketSource", equalTo("SQL")).body("dependenciesInherited", equalTo(false));
        given().contentType(ContentType.JSON).body(Map.of("dependencies", List.of(Map.of("processId", sql))))
                .put(job + gated).then().statusCode(200).body("dependencies[0].processId", equalTo((int) sql));

        WorkflowExecution.Outcome first = launcher.runOnce(p, NOW).outcome().orElseThrow();
        assertThat(first.bucketState()).isEqualTo(State.COMPLETE);
        assertThat(f.lines("calls")).containsExactly(plain + " 20240301", sql + " K1");
        assertThat(f.lines("hooks")).containsExactly("done " + sql + " K1");
        assertThat(ledger(sql)).containsExactly("K1=COMPLETE", "K2=INIT");
        // the gated job waits for bucket 20240301 of the SQL job, which never has it: skipped, its bucket waits
        assertThat(ledger(gated)).containsExactly("20240301=INIT");
        given().get("/runs/" + first.instanceExecId() + "/log").then().statusCode(200)
                .body("items.line", hasItem("job " + off + " skipped: job " + off + " is disabled"));
        given().get("/why/" + p).then().statusCode(200).body("reasons.code", hasItem("JOB_DISABLED"))
                .body("reasons.code", hasItem("JOB_UNMET_DEPENDENCY"));

        // the next run of the group: the SQL job takes its next key, the others the run's bucket; K2 left RUNNING by a
        // run whose runner died waits again first
        execute("UPDATE bucket_status SET status = 'RUNNING' WHERE process_id = ? AND bucket = 'K2'", sql);
        f.bucket(p, "20240302");
        launcher.runOnce(p, NOW);
        assertThat(f.lines("calls")).endsWith(plain + " 20240302", sql + " K2");
        assertThat(ledger(sql)).containsExactly("K1=COMPLETE", "K2=COMPLETE");

        // the contract: codes 430 (bad settings, a query that fails or writes), 431 (not a step of this parent), 410
        given().contentType(ContentType.JSON).body(Map.of("bucket", "YYYYMMDD", "bucketSql", "SELECT 1")).put(job + sql)
                .then().statusCode(400).body("code", equalTo(430));
        given().contentType(ContentType.JSON).body(Map.of("bucketSql", "SELECT nope FROM " + table)).put(job + sql)
                .then().statusCode(400).body("code", equalTo(430));
        given().contentType(ContentType.JSON).body(Map.of("bucketSql", "DELETE FROM " + table + " RETURNING k"))
                .put(job + sql).then().statusCode(400).body("code", equalTo(430))
                .body("detail", org.hamcrest.Matchers.containsString("read-only"));
        given().contentType(ContentType.JSON).body(Map.of("bucket", "NextFullMoon")).put(job + sql)
                .then().statusCode(400).body("code", equalTo(430));
        given().contentType(ContentType.JSON).body(Map.of("hooks", Map.of("onInit", "../x.sh"))).put(job + sql)
                .then().statusCode(422).body("code", equalTo(410));
        given().get("/runner/processes/" + p + "/steps/" + RunnerFixtures.id()).then().statusCode(404)
                .body("code", equalTo(431));
        assertThat(query("SELECT count(*) FROM " + table)).containsExactly("4");
    }

    /** A job's own bucket ledger (bucket_status under its step id) as bucket=STATUS, in bucket order. */
    private static List<String> ledger(long stepId) {
        return query("SELECT bucket || '=' || status FROM bucket_status WHERE process_id = " + stepId + " ORDER BY bucket");
    }

    private static List<String> query(String sql) {
        Infrastructure.Database db = BatchyardTestStack.database();
        try (Connection c = db.connect();
             PreparedStatement statement = c.prepareStatement(sql);
             java.sql.ResultSet rs = statement.executeQuery()) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
