package io.batchyard.execution.backfill;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;

import io.batchyard.execution.ExecutionFixtures;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.StubImpact;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.execution.runner.Launcher;
import io.batchyard.execution.runner.WorkflowExecution;
import io.batchyard.events.execution.BackfillFinished;
import io.batchyard.events.execution.BackfillProgress;
import io.batchyard.events.execution.BackfillStarted;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.Management;
import io.batchyard.teststack.PrometheusText;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Previews and starts against the real database, runner and bucket ledger; queue-service's walk is {@link StubImpact}'s
 * prepared answer (a diamond A → B, C → D), so the test holds what execution-service adds: which root runs it asks
 * about per mode, the buckets that never ran, levels, reason chains, estimates from run history, the kept plan, and
 * read permission on every process listed.
 */
@ExecutionTest
class BackfillApiTest {

    private static final LocalDateTime NOW = LocalDateTime.of(2026, 3, 5, 7, 30);
    /** A viewer in no group: the open application gives others read, the hidden one nothing. */
    private static final String VIC = Identity.get().token("vic", Set.of("viewer"), Set.of());
    /** An operator in no group: read on the open application, nothing on the hidden one, execute on neither. */
    private static final String OSCAR = Identity.get().token("oscar", Set.of("operator"), Set.of());
    private static final String ADMIN = Identity.get().token("ada", Set.of("admin"), Set.of());

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @ConfigProperty(name = "batchyard.runner.script-dir")
    String scriptDir;

    @Inject
    Launcher launcher;

    private record World(long a, long b, long c, long d, long a2, long hidden, long bare, long run1, long run2) {
    }

    private static World world;

    @BeforeEach
    void world() {
        if (world == null) {
            world = newWorld();
        }
        // each test starts from these answers; one may change them for itself
        StubImpact.answer(world.a(), diamond(world));
        StubImpact.answer(world.a2(), """
                {"fingerprint": "%s", "rowsRead": 2, "units": [
                  {"processId": %d, "runId": 7001, "targetBatchId": 7101, "status": "COMPLETED", "marking": "x",
                   "root": true, "inputBatchIds": [5], "causes": []},
                  {"processId": %d, "runId": 7002, "targetBatchId": 7102, "status": "COMPLETED", "marking": "x",
                   "root": false, "inputBatchIds": [7101], "causes": [{"processId": %d, "runId": 7001, "batchId": 7101}]}
                ]}""".formatted("cd".repeat(32), world.a2(), world.hidden(), world.a2()));
    }

    private World newWorld() {
        try (ExecutionFixtures f = new ExecutionFixtures(bootstrap)) {
            long open = ExecutionFixtures.id(), closed = ExecutionFixtures.id();
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + open,
                    ProcessTrees.application(open, "olga", "ops", 7, 7, 4));
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + closed,
                    ProcessTrees.application(closed, "olga", "ops", 7, 7, 0));
            long a = ExecutionFixtures.id(), as = ExecutionFixtures.id();
            f.register(ProcessTrees.parent(a).application(open).workflowType(2).next(as)
                    .step(as, s -> s.property("script", "run", script("backfill-root-" + a + ".sh")).next(a)));
            long b = parent(f, open), c = parent(f, open), d = parent(f, open), a2 = parent(f, open);
            long hidden = parent(f, closed);
            long bare = parent(f, open);
            await().atMost(ExecutionFixtures.WAIT).untilAsserted(() -> given().auth().oauth2(VIC)
                    .get("/process-definitions/" + d).then().statusCode(200));
            // a backfill re-runs its entries on the runner: every job a plan here lists has a run policy
            for (long p : List.of(a, b, c, d, a2, hidden)) {
                given().contentType(ContentType.JSON).body(Map.of()).put("/runner/processes/" + p).then()
                        .statusCode(200);
            }
            long run1 = run(a, "20260301"), run2 = run(a, "20260302");
            return new World(a, b, c, d, a2, hidden, bare, run1, run2);
        }
    }

    private long parent(ExecutionFixtures f, long application) {
        long p = ExecutionFixtures.id();
        f.register(ProcessTrees.parent(p).application(application).workflowType(2).next(ExecutionFixtures.id()));
        return p;
    }

    private String script(String name) {
        try {
            Path dir = Files.createDirectories(Path.of(scriptDir).toAbsolutePath());
            Path p = dir.resolve(name);
            Files.writeString(p, "#!/bin/sh\nsleep 0.2\n");
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
            return name;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long run(long pid, String bucket) {
        given().contentType(ContentType.JSON).body(Map.of("bucket", bucket))
                .post("/runner/processes/" + pid + "/buckets").then().statusCode(201);
        WorkflowExecution.Outcome outcome = launcher.runOnce(pid, NOW).outcome().orElseThrow();
        assertThat(outcome.bucketState()).as(outcome.message()).isEqualTo(State.COMPLETE);
        return outcome.instanceExecId();
    }

    /** queue-service's walk from A's run of 20260301: B and C consumed its batch, D consumed both of theirs. */
    private static String diamond(World w) {
        return """
                {"fingerprint": "%s", "rowsRead": 9, "units": [
                  {"processId": %d, "runId": %d, "targetBatchId": 9001, "status": "COMPLETED", "marking": null,
                   "root": true, "inputBatchIds": [], "causes": []},
                  {"processId": %d, "runId": 8101, "targetBatchId": 9101, "status": "COMPLETED", "marking": "20260301",
                   "root": false, "inputBatchIds": [9001], "causes": [{"processId": %d, "runId": %d, "batchId": 9001}]},
                  {"processId": %d, "runId": 8201, "targetBatchId": 9201, "status": "COMPLETED", "marking": "20260301",
                   "root": false, "inputBatchIds": [9001], "causes": [{"processId": %d, "runId": %d, "batchId": 9001}]},
                  {"processId": %d, "runId": 8301, "targetBatchId": 9301, "status": "COMPLETED", "marking": "20260301",
                   "root": false, "inputBatchIds": [9101, 9201], "causes": [
                     {"processId": %d, "runId": 8101, "batchId": 9101}, {"processId": %d, "runId": 8201, "batchId": 9201}]}
                ]}""".formatted("ab".repeat(32), w.a(), w.run1(), w.b(), w.a(), w.run1(), w.c(), w.a(), w.run1(),
                w.d(), w.b(), w.c());
    }

    private static Map<String, Object> request(long root, String mode) {
        Map<String, Object> body = new HashMap<>();
        body.put("roots", List.of(Map.of("processId", root)));
        body.put("fromBucket", "20260301");
        body.put("toBucket", "20260303");
        body.put("mode", mode);
        return body;
    }

    @Test
    void allRedoesTheRangesRunsAndTheirConsumersInLevelsAndTheBucketThatNeverRan() {
        World w = world;
        JsonPath plan = given().contentType(ContentType.JSON).body(request(w.a(), "all")).post("/backfills/preview")
                .then().statusCode(201).extract().jsonPath();
        String sent = StubImpact.lastRequest(w.a());
        assertThat(sent).contains("\"rootRunIds\":[" + w.run1() + "," + w.run2() + "]").contains("\"cascade\":true");

        assertThat(plan.getList("entries.processId", Long.class)).containsExactly(w.a(), w.a(), w.b(), w.c(), w.d());
        assertThat(plan.getList("entries.level", Integer.class)).containsExactly(0, 0, 1, 1, 2);
        assertThat(plan.getList("entries.bucket", String.class))
                .containsExactly("20260301", "20260303", "20260301", "20260301", "20260301");
        assertThat(plan.getList("entries.status", String.class))
                .containsExactly("COMPLETED", "MISSING", "COMPLETED", "COMPLETED", "COMPLETED");
        assertThat(plan.getList("entries.entryNo", Integer.class)).containsExactly(1, 2, 3, 4, 5);
        assertThat(plan.getList("entries[4].reason.processId", Long.class)).containsExactly(w.a(), w.b(), w.d());
        assertThat(plan.getList("entries[4].reason.batchId", Long.class)).containsExactly(null, 9001L, 9101L);
        assertThat(plan.getList("entries[4].inputBatchIds", Long.class)).containsExactly(9101L, 9201L);
        assertThat(plan.getLong("entries[0].estimatedMs")).isGreaterThan(0);
        assertThat(plan.getString("entries[2].estimatedMs")).as("B never ran here: no estimate").isNull();
        assertThat(plan.getInt("levels")).isEqualTo(3);
        assertThat(plan.getInt("entriesWithoutEstimate")).isEqualTo(3);
        assertThat(plan.getLong("estimatedMs")).isEqualTo(plan.getLong("entries[0].estimatedMs")
                + plan.getLong("entries[1].estimatedMs"));
        assertThat(plan.getString("fingerprint")).matches("[0-9a-f]{64}").isNotEqualTo("ab".repeat(32));

        // kept as it was answered
        String id = plan.getString("planId");
        given().get("/backfills/plans/" + id).then().statusCode(200)
                .body("entries.processId", equalTo(plan.getList("entries.processId")))
                .body("fingerprint", equalTo(plan.getString("fingerprint")));
        // the preview changed nothing of the runner's
        given().queryParam("limit", 10).get("/runner/processes/" + w.a() + "/buckets").then()
                .body("items.findAll { it.bucket < '20260303' }.status", equalTo(List.of("COMPLETE", "COMPLETE")))
                .body("items.findAll { it.status == 'RUNNING' }", equalTo(List.of()));
    }

    @Test
    void missingAndFailedAskForNoCompletedRunAndDoNotCascade() {
        World w = world;
        JsonPath missing = given().contentType(ContentType.JSON).body(request(w.a(), "missing"))
                .post("/backfills/preview").then().statusCode(201).extract().jsonPath();
        assertThat(StubImpact.lastRequest(w.a())).contains("\"rootRunIds\":[]").contains("\"cascade\":false");
        assertThat(missing.getList("entries.bucket", String.class)).containsExactly("20260303");
        assertThat(missing.getList("entries.replacedRunId")).containsExactly((Object) null);

        JsonPath failed = given().contentType(ContentType.JSON).body(request(w.a(), "failed"))
                .post("/backfills/preview").then().statusCode(201).extract().jsonPath();
        assertThat(StubImpact.lastRequest(w.a())).contains("\"rootRunIds\":[]").contains("\"cascade\":false");
        assertThat(failed.getList("entries")).as("no bucket of the range failed").isEmpty();
    }

    @Test
    void aPlanReachingAProcessTheCallerMayNotReadIsRefusedWithoutNamingIt() {
        World w = world;
        Map<String, Object> body = Map.of("roots", List.of(Map.of("processId", w.a2())), "batchIds", List.of(5));
        given().auth().oauth2(VIC).contentType(ContentType.JSON).body(body).post("/backfills/preview").then()
                .statusCode(403).body("code", equalTo(14))
                .body("detail", not(containsString(String.valueOf(w.hidden()))));
        String id = given().contentType(ContentType.JSON).body(body).post("/backfills/preview").then()
                .statusCode(201).extract().jsonPath().getString("planId");
        given().auth().oauth2(VIC).get("/backfills/plans/" + id).then().statusCode(404).body("code", equalTo(461));
        // a root the caller may not read does not exist, like one nobody registered
        given().auth().oauth2(VIC).contentType(ContentType.JSON)
                .body(Map.of("roots", List.of(Map.of("processId", w.hidden())), "batchIds", List.of(5)))
                .post("/backfills/preview").then().statusCode(404).body("code", equalTo(412));
        given().auth().oauth2(VIC).contentType(ContentType.JSON)
                .body(Map.of("roots", List.of(Map.of("processId", 987_654_321L)), "batchIds", List.of(5)))
                .post("/backfills/preview").then().statusCode(404).body("code", equalTo(412));
    }

    @Test
    void refusals() {
        World w = world;
        given().contentType(ContentType.JSON).body(Map.of("roots", List.of(Map.of("processId", w.a()))))
                .post("/backfills/preview").then().statusCode(400).body("code", equalTo(460));
        given().contentType(ContentType.JSON).body(Map.of("roots", List.of(Map.of("processId", w.a())),
                "fromBucket", "20260303")).post("/backfills/preview").then().statusCode(400).body("code", equalTo(460));
        given().contentType(ContentType.JSON).body(Map.of("roots", List.of(Map.of("processId", w.a())),
                        "fromBucket", "20260303", "toBucket", "20260301")).post("/backfills/preview").then()
                .statusCode(400).body("code", equalTo(460));
        given().contentType(ContentType.JSON).body(Map.of("roots", List.of(Map.of("processId", w.a())),
                "batchIds", List.of(5), "mode", "sometimes")).post("/backfills/preview").then().statusCode(400);
        given().get("/backfills/plans/" + java.util.UUID.randomUUID()).then().statusCode(404)
                .body("code", equalTo(461));
        // a root's columns are db.table.column; pruning by them needs lineage-service, which does not answer here
        given().contentType(ContentType.JSON).body(Map.of("roots", List.of(Map.of("processId", w.a(),
                        "columns", List.of("orders_only"))), "batchIds", List.of(5)))
                .post("/backfills/preview").then().statusCode(400).body("code", equalTo(1));
        given().contentType(ContentType.JSON).body(Map.of("roots", List.of(Map.of("processId", w.a(),
                        "columns", List.of("sales.orders.amount"))), "fromBucket", "20260301", "toBucket", "20260303"))
                .post("/backfills/preview").then().statusCode(503).body("code", equalTo(467))
                .body("detail", containsString("lineage-service"));
    }

    private static String preview(Map<String, Object> body) {
        return given().contentType(ContentType.JSON).body(body).post("/backfills/preview").then().statusCode(201)
                .extract().jsonPath().getString("planId");
    }

    private static io.restassured.response.ValidatableResponse start(String token, Map<String, Object> body) {
        return given().auth().oauth2(token).contentType(ContentType.JSON).body(body).post("/backfills").then();
    }

    @Test
    void aFreshPlanStartsAndAStaleOneIsRefusedWithItsDifferenceUnlessRecomputed() {
        World w = world;
        Map<String, Object> request = Map.of("roots", List.of(Map.of("processId", w.a2())), "batchIds", List.of(5));
        String planId = preview(request);
        start(ADMIN, Map.of("planId", planId)).statusCode(202)
                .header("Location", containsString("/backfills/"))
                .body("backfill.state", equalTo("QUEUED")).body("backfill.concurrency", equalTo(2))
                .body("backfill.onFailure", equalTo("stop")).body("plan.planId", equalTo(planId));

        // the archive moved: one more run consumed the root's batch
        StubImpact.answer(w.a2(), """
                {"fingerprint": "%s", "rowsRead": 3, "units": [
                  {"processId": %d, "runId": 7001, "targetBatchId": 7101, "status": "COMPLETED", "marking": "x",
                   "root": true, "inputBatchIds": [5], "causes": []},
                  {"processId": %d, "runId": 7002, "targetBatchId": 7102, "status": "COMPLETED", "marking": "x",
                   "root": false, "inputBatchIds": [7101], "causes": [{"processId": %d, "runId": 7001, "batchId": 7101}]},
                  {"processId": %d, "runId": 7003, "targetBatchId": 7103, "status": "COMPLETED", "marking": "x",
                   "root": false, "inputBatchIds": [7101], "causes": [{"processId": %d, "runId": 7001, "batchId": 7101}]}
                ]}""".formatted("ef".repeat(32), w.a2(), w.hidden(), w.a2(), w.d(), w.a2()));
        start(ADMIN, Map.of("planId", planId)).statusCode(409).body("code", equalTo(462))
                .body("detail", containsString("1 entries more, 0 fewer"))
                .body("detail", containsString("process " + w.d() + " bucket x run 7003"));
        String fresh = start(ADMIN, Map.of("planId", planId, "recompute", true, "concurrency", 3,
                        "onFailure", "continue")).statusCode(202)
                .body("plan.entries", hasSize(3))
                .body("backfill.concurrency", equalTo(3)).body("backfill.onFailure", equalTo("continue"))
                .extract().jsonPath().getString("plan.planId");
        assertThat(fresh).isNotEqualTo(planId);
    }

    @Test
    void aPlanWithAJobTheRunnerCannotRunIsRefusedUpFront() {
        World w = world;
        StubImpact.answer(w.bare(), """
                {"fingerprint": "%s", "rowsRead": 1, "units": [
                  {"processId": %d, "runId": 7201, "targetBatchId": 7301, "status": "COMPLETED", "marking": "x",
                   "root": true, "inputBatchIds": [5], "causes": []}
                ]}""".formatted("aa".repeat(32), w.bare()));
        String planId = preview(Map.of("roots", List.of(Map.of("processId", w.bare())), "batchIds", List.of(5)));
        start(ADMIN, Map.of("planId", planId)).statusCode(422).body("code", equalTo(465))
                .body("detail", containsString("process " + w.bare() + " has no run policy"));
    }

    @Test
    void aBucketRecordedSinceMakesThePlanStaleEvenWhenItsEntriesAreTheSame() {
        World w = world;
        Map<String, Object> failed = Map.of("roots", List.of(Map.of("processId", w.a())), "fromBucket", "20260301",
                "toBucket", "20260303", "mode", "failed");
        String planId = preview(failed);
        start(ADMIN, Map.of("planId", planId)).statusCode(202);
        given().contentType(ContentType.JSON).body(Map.of("bucket", "20260303"))
                .post("/runner/processes/" + w.a() + "/buckets").then().statusCode(anyOf(equalTo(200), equalTo(201)));
        start(ADMIN, Map.of("planId", planId)).statusCode(409).body("code", equalTo(462))
                .body("detail", containsString("0 entries more, 0 fewer"));
        start(ADMIN, Map.of("planId", preview(failed))).statusCode(202);
    }

    @Test
    void pauseResumeAndCancelFollowTheTableAndNeedExecuteOnEveryProcess() {
        World w = world;
        String planId = preview(Map.of("roots", List.of(Map.of("processId", w.a())), "fromBucket", "20260301",
                "toBucket", "20260303", "mode", "missing"));
        // oscar reads A's application but may not execute its jobs: refused up front, naming A
        start(OSCAR, Map.of("planId", planId)).statusCode(403).body("code", equalTo(14))
                .body("detail", containsString(String.valueOf(w.a())));
        start(VIC, Map.of("planId", planId)).statusCode(403).body("code", equalTo(13));
        EventProbe events = EventProbe.on(bootstrap, Topics.EXECUTION_BACKFILLS);
        String id = start(ADMIN, Map.of("planId", planId)).statusCode(202).extract().jsonPath()
                .getString("backfill.backfillId");
        String path = "/backfills/" + id;
        given().auth().oauth2(VIC).get(path).then().statusCode(200).body("backfill.state", equalTo("QUEUED"));
        given().auth().oauth2(OSCAR).post(path + "/pause").then().statusCode(403).body("code", equalTo(14));
        given().auth().oauth2(ADMIN).post(path + "/pause").then().statusCode(200).body("backfill.state", equalTo("PAUSED"));
        given().auth().oauth2(ADMIN).post(path + "/pause").then().statusCode(409).body("code", equalTo(464));
        given().auth().oauth2(ADMIN).post(path + "/resume").then().statusCode(200).body("backfill.state", equalTo("QUEUED"));
        given().auth().oauth2(ADMIN).post(path + "/cancel").then().statusCode(200)
                .body("backfill.state", equalTo("CANCELLED"));
        given().auth().oauth2(ADMIN).post(path + "/resume").then().statusCode(409).body("code", equalTo(464));
        given().auth().oauth2(ADMIN).get(path).then().body("backfill.state", equalTo("CANCELLED"))
                .body("backfill.version", equalTo(3));
        try (events) {
            BackfillStarted started = events.await(BackfillStarted.class, e -> e.getBackfillId().equals(id),
                    Duration.ofSeconds(30)).event();
            assertThat(started.getPlanId()).isEqualTo(planId);
            assertThat(started.getRootProcessIds()).containsExactly(w.a());
            assertThat(started.getEntries()).isEqualTo(1);
            assertThat(events.all(BackfillProgress.class, e -> e.getBackfillId().equals(id), Duration.ofSeconds(2)))
                    .extracting(e -> e.getPreviousState() + ">" + e.getState())
                    .containsExactly("QUEUED>PAUSED", "PAUSED>QUEUED");
            BackfillFinished finished = events.await(BackfillFinished.class, e -> e.getBackfillId().equals(id),
                    Duration.ofSeconds(30)).event();
            assertThat(finished.getState()).isEqualTo("CANCELLED");
            assertThat(finished.getPreviousState()).isEqualTo("QUEUED");
        }

        // the meters: plans computed, and the cancelled backfill among the sampled states
        assertThat(PrometheusText.value(Management.ofApplicationUnderTest().metricsText(),
                "batchyard_backfill_plan_seconds_count")).isPositive();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(PrometheusText.value(
                Management.ofApplicationUnderTest().metricsText(), "batchyard_backfills", "state", "CANCELLED"))
                .isGreaterThanOrEqualTo(1));

        // a backfill whose plan lists a process the caller may not read does not exist for it
        String hiddenPlan = preview(Map.of("roots", List.of(Map.of("processId", w.a2())), "batchIds", List.of(5)));
        start(OSCAR, Map.of("planId", hiddenPlan)).statusCode(404).body("code", equalTo(461));
        String hiddenRun = start(ADMIN, Map.of("planId", hiddenPlan)).statusCode(202).extract().jsonPath()
                .getString("backfill.backfillId");
        given().auth().oauth2(VIC).get("/backfills/" + hiddenRun).then().statusCode(404).body("code", equalTo(463));
        given().auth().oauth2(OSCAR).post("/backfills/" + hiddenRun + "/cancel").then().statusCode(404)
                .body("code", equalTo(463));
        given().get("/backfills/" + java.util.UUID.randomUUID()).then().statusCode(404).body("code", equalTo(463));
    }
}
