package io.batchyard.execution.lifecycle;

import static io.batchyard.execution.ExecutionFixtures.WAIT;
import static io.batchyard.execution.ExecutionFixtures.id;
import static io.batchyard.execution.ExecutionFixtures.register;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.StepFailed;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.StubQueue;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.Infrastructure;
import io.batchyard.teststack.Management;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

@ExecutionTest
class LifecycleApiTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aFullRunEmitsEveryLifecycleEventKeyedByTheParent() {
        long p = id(), s1 = id(), s2 = id(), s3 = id();
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(s2)).step(s2, s -> s.next(s3))
                .step(s3, s -> s.next(p)));
        try (EventProbe events = EventProbe.on(bootstrap, Topics.EXECUTION_LIFECYCLE)) {
            var start = initJob(p, 1).statusCode(200).extract().jsonPath();
            long ie = start.getLong("instanceExecId");
            assertThat(start.getString("outputs.'instance-exec-id'")).isEqualTo(String.valueOf(ie));
            assertThat(start.getString("outputs.'last-recoverable-sp-id'")).isEmpty();
            for (long s : List.of(s1, s2, s3)) {
                long sub = post("/steps/" + s + "/init").statusCode(200).body("subProcessId", equalTo((int) s))
                        .extract().jsonPath().getLong("subInstanceExecId");
                assertThat(sub).isPositive();
                post("/steps/" + s + "/halt").statusCode(200);
            }
            given().contentType(ContentType.JSON).body(Map.of("batchMarking", "null,")).post("/jobs/" + p + "/halt")
                    .then().statusCode(200).body("state", equalTo("SUCCESS")).body("batchMarking", equalTo(null));

            var started = events.await(JobStarted.class, e -> e.getInstanceExecId() == ie, WAIT);
            assertThat(started.key()).isEqualTo(String.valueOf(p));
            events.await(StepStarted.class, e -> e.getSubProcessId() == s3 && e.getParentInstanceExecId() == ie, WAIT);
            var stepHalted = events.await(StepHalted.class, e -> e.getSubProcessId() == s2, WAIT);
            assertThat(stepHalted.key()).isEqualTo(String.valueOf(p));
            var halted = events.await(JobHalted.class, e -> e.getInstanceExecId() == ie, WAIT);
            assertThat(halted.event().getTargetBatchId()).isEqualTo(start.getLong("targetBatchId"));
            assertThat(halted.key()).isEqualTo(String.valueOf(p));
        }
        given().get("/runs/" + s3).then().statusCode(404);
        given().queryParam("processId", p).get("/runs").then().body("total", equalTo(1)).body("items[0].state", equalTo("SUCCESS"));
    }

    @Test
    void initJobAnswersTheClaimedRowsBesideTheOutputKeys() {
        long p = id(), s1 = id(), up = id(), tb = 80_000 + up % 10_000;
        register(bootstrap, ProcessTrees.parent(up).next(id()));
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.enqueuedBy(up).next(p)));
        // queue-service's answer for two queued batches of s1, both enqueued by up
        StubQueue.prepare(p, 200, """
                {"targetBatchId": %1$d, "retry": false, "rows": [
                  {"queueId": 501, "processId": %2$d, "sourceBatchId": 11, "batchMarking": "2014-12-16",
                   "targetBatchId": %1$d, "sourceProcessId": %3$d, "sourceInstanceExecId": 901,
                   "fileList": "/in/a.csv", "batchList": "11"},
                  {"queueId": 502, "processId": %2$d, "sourceBatchId": 22, "batchMarking": "EOD@2014-12-17",
                   "targetBatchId": %1$d, "sourceProcessId": %3$d, "sourceInstanceExecId": 902,
                   "fileList": null, "batchList": null}]}""".formatted(tb, s1, up));

        var start = initJob(p, 2).statusCode(200).extract().jsonPath();
        assertThat(start.getList("rows")).hasSize(2);
        assertThat(start.getList("rows.queueId", Long.class)).containsExactly(501L, 502L);
        assertThat(start.getList("rows.processId", Long.class)).containsExactly(s1, s1);
        assertThat(start.getList("rows.sourceBatchId", Long.class)).containsExactly(11L, 22L);
        assertThat(start.getList("rows.targetBatchId", Long.class)).containsExactly(tb, tb);
        assertThat(start.getList("rows.batchMarking", String.class)).containsExactly("2014-12-16", "EOD@2014-12-17");
        assertThat(start.getList("rows.sourceProcessId", Long.class)).containsExactly(up, up);
        assertThat(start.getList("rows.sourceInstanceExecId", Long.class)).containsExactly(901L, 902L);
        assertThat(start.getList("rows.fileList", String.class)).containsExactly("/in/a.csv", null);
        // the output keys are as they were
        assertThat(start.getLong("targetBatchId")).isEqualTo(tb);
        assertThat(start.getString("outputs.'min-batch-id-map." + s1 + "'")).isEqualTo("11");
        assertThat(start.getString("outputs.'max-batch-id-map." + s1 + "'")).isEqualTo("22");
        assertThat(start.getString("outputs.'max-batch-marking-map." + s1 + "'")).isEqualTo("2014-12-17");
        assertThat(start.getString("outputs.'target-batch-marking'")).isEqualTo("2014-12-16,EOD@2014-12-17");

        // a queue-service that does not send the newer fields yet: they are null, the rest is read as before
        long q = id(), t1 = id();
        register(bootstrap, ProcessTrees.parent(q).next(t1).step(t1, s -> s.next(q)));
        StubQueue.prepare(q, 200, """
                {"targetBatchId": %1$d, "retry": false, "rows": [
                  {"processId": %2$d, "sourceBatchId": 0, "batchMarking": null, "targetBatchId": %1$d}]}"""
                .formatted(tb + 1, t1));
        initJob(q, 1).statusCode(200).body("rows[0].queueId", nullValue()).body("rows[0].sourceProcessId", nullValue())
                .body("rows[0].sourceBatchId", equalTo(0)).body("rows[0].targetBatchId", equalTo((int) tb + 1));
    }

    /**
     * The claim goes with the trace of the InitJob request that caused it, and a queue that answers 503 once is asked
     * again (the claim is idempotent per run): the caller sees the run start. A refusal (4xx) is never asked again:
     * {@link #everyLifecycleRejectionHasItsCodeAndText} gets its 112 although the next answer would be a claim.
     */
    @Test
    void theClaimCarriesTheCallersTraceAndATransientFailureIsTriedAgain() {
        long p = id(), s1 = id();
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p)));
        String trace = String.format("%032x", p);
        StubQueue.prepare(p, 503, "{\"status\":503,\"code\":3,\"title\":\"Service unavailable\"}");
        given().header("traceparent", "00-" + trace + "-00f067aa0ba902b7-01").contentType(ContentType.JSON)
                .body(Map.of("maxBatch", 1)).post("/jobs/" + p + "/init").then().statusCode(200);
        assertThat(StubQueue.claimsOf(p)).isEqualTo(2);
        assertThat(StubQueue.traceparentOfLastClaim(p)).startsWith("00-" + trace + "-");
    }

    @Test
    void everyLifecycleRejectionHasItsCodeAndText() {
        long p = id(), s1 = id(), s2 = id(), enq = id();
        register(bootstrap, ProcessTrees.parent(enq).next(id()));
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.enqueuedBy(enq).next(s2))
                .step(s2, s -> s.next(p)));

        expect(initJob(p, null), 422, 101, "max_batch cannot be null");
        expect(initJob(987_654_321L, 1), 422, 102, "Invalid parent-process. pid=987654321");
        expect(initJob(s1, 1), 422, 102, "Invalid parent-process. pid=" + s1);
        expect(post("/steps/" + p + "/init"), 422, 103, "Invalid sub-process. sub_pid =" + p);
        expect(post("/steps/" + s1 + "/init"), 409, 108, "The parent process is not under execution, sub_pid=" + s1);
        expect(post("/steps/" + s1 + "/halt"), 409, 108, "The parent process is not under execution, sub_pid= " + s1);
        expect(post("/steps/" + s1 + "/term"), 409, 108, "The parent process is not under execution,sub_pid=" + s1);
        expect(post("/steps/" + p + "/term"), 422, 103, "Invalid sub-process.sub_pid=" + p);
        expect(post("/jobs/" + p + "/halt"), 409, 105, "The process is not under execution, pid=" + p);
        expect(post("/jobs/" + p + "/term"), 409, 105, "The process is not under execution, pid=" + p);
        StubQueue.prepare(p, 409, "{\"status\":409,\"code\":112,\"title\":\"No batches present for one of the sub processes\","
                + "\"detail\":\"No batches present for one of the sub processes, sub_pid=" + s1 + "\"}");
        expect(initJob(p, 1), 409, 112, "sub_pid=" + s1);
        given().queryParam("processId", p).get("/runs").then().body("total", equalTo(0));

        initJob(p, 1).statusCode(200);
        expect(initJob(p, 1), 409, 104, "Parent Process is already running. pid=" + p);
        expect(post("/steps/" + s1 + "/halt"), 409, 107, "This sub process is not running ! sub_pid=" + s1);
        post("/steps/" + s1 + "/init").statusCode(200);
        expect(post("/steps/" + s1 + "/init"), 409, 106, "This sub process is already under execution ! sub_pid=" + s1);
        expect(post("/jobs/" + p + "/halt"), 409, 110, "sub process in running  state");
        expect(post("/jobs/" + p + "/term"), 409, 110, "sub process in running state");
        post("/steps/" + s1 + "/term").statusCode(200);
        expect(post("/jobs/" + p + "/halt"), 409, 111, "sub process in failed state");
        post("/jobs/" + p + "/term").statusCode(200).body("state", equalTo("FAILED"));
        post("/steps/abc/halt").statusCode(400).body("code", equalTo(1));
    }

    @Test
    void aFailedRunResumesFromTheLastRecoverableStep() {
        long p = id(), s1 = id(), s2 = id(), s3 = id();
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(s2)).step(s2, s -> s.next(s3))
                .step(s3, s -> s.next(p)));
        try (EventProbe events = EventProbe.on(bootstrap, Topics.EXECUTION_LIFECYCLE)) {
            long tb = initJob(p, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
            post("/steps/" + s1 + "/init").statusCode(200);
            post("/steps/" + s1 + "/halt").statusCode(200);
            post("/steps/" + s2 + "/init").statusCode(200);
            post("/steps/" + s2 + "/term").statusCode(200);
            post("/jobs/" + p + "/term").statusCode(200);
            events.await(StepFailed.class, e -> e.getSubProcessId() == s2, WAIT);
            events.await(JobFailed.class, e -> e.getProcessId() == p && e.getTargetBatchId() == tb, WAIT);
        }
        StubQueue.prepare(p, 200, "{\"targetBatchId\":" + 1 + ",\"retry\":true,\"rows\":[]}");
        var retry = initJob(p, 1).statusCode(200).extract().jsonPath();
        assertThat(retry.getLong("lastRecoverableSpId")).isEqualTo(s2);
        assertThat(retry.getString("outputs.'last-recoverable-sp-id'")).isEqualTo(String.valueOf(s2));
        assertThat(retry.getBoolean("retry")).isTrue();
        // the resumed run skips s1, re-runs s2 and s3, and halts: the failed s2 of the old run does not block it
        for (long s : List.of(s2, s3)) {
            post("/steps/" + s + "/init").statusCode(200);
            post("/steps/" + s + "/halt").statusCode(200);
        }
        post("/jobs/" + p + "/halt").statusCode(200).body("state", equalTo("SUCCESS"));
        // after a success, the next run starts from the beginning
        assertThat(initJob(p, 1).statusCode(200).extract().jsonPath().getString("outputs.'last-recoverable-sp-id'")).isEmpty();
    }

    @Test
    void termJobKeepsTheCallersCodeAndTextOnTheRunAndSendsThemWithJobFailed() {
        long p = id(), s1 = id();
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p)));
        try (EventProbe events = EventProbe.on(bootstrap, Topics.EXECUTION_LIFECYCLE)) {
            long ie = initJob(p, 1).statusCode(200).extract().jsonPath().getLong("instanceExecId");
            post("/steps/" + s1 + "/init").statusCode(200);
            post("/steps/" + s1 + "/term").statusCode(200);
            String text = "load into t1 failed: disk full on node-7 — retry after cleanup";
            given().contentType(ContentType.JSON).body(Map.of("code", -42, "text", text)).post("/jobs/" + p + "/term")
                    .then().statusCode(200).body("state", equalTo("FAILED"));

            given().get("/runs/" + ie).then().statusCode(200).body("run.state", equalTo("FAILED"))
                    .body("run.failureCode", equalTo(-42)).body("run.failureText", equalTo(text))
                    .body("steps[0].state", equalTo("FAILED"))
                    .body("steps[0].failureCode", nullValue()).body("steps[0].failureText", nullValue());
            var failed = events.await(JobFailed.class, e -> e.getInstanceExecId() == ie, WAIT);
            assertThat(failed.key()).isEqualTo(String.valueOf(p));
            assertThat(failed.event().getErrorCode()).isEqualTo(-42);
            assertThat(failed.event().getErrorText()).isEqualTo(text);
        }
        // the retry is a new run: the old run's reason stays with the old run
        long retry = initJob(p, 1).statusCode(200).extract().jsonPath().getLong("instanceExecId");
        given().get("/runs/" + retry).then().body("run.state", equalTo("RUNNING"))
                .body("run.failureCode", nullValue()).body("run.failureText", nullValue());
        // either half alone is a reason too
        given().contentType(ContentType.JSON).body(Map.of("text", "cancelled by the operator"))
                .post("/jobs/" + p + "/term").then().statusCode(200);
        given().get("/runs/" + retry).then().body("run.failureCode", nullValue())
                .body("run.failureText", equalTo("cancelled by the operator"));
    }

    @Test
    void termJobWithoutAReasonWorksAsBeforeAndLeavesBothNull() {
        long p = id(), s1 = id();
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p)));
        Map<String, UnaryOperator<RequestSpecification>> bodiless = new java.util.LinkedHashMap<>();
        bodiless.put("no Content-Type, no body", r -> r);
        bodiless.put("JSON declared, no body", r -> r.contentType(ContentType.JSON));
        bodiless.put("an empty body", r -> r.contentType(ContentType.JSON).body(""));
        bodiless.put("an empty object", r -> r.contentType(ContentType.JSON).body("{}"));
        bodiless.put("both null", r -> r.contentType(ContentType.JSON).body("{\"code\": null, \"text\": null}"));
        bodiless.put("text/plain, no body", r -> r.contentType(ContentType.TEXT));
        bodiless.put("a form type, no body (curl -d '')", r -> r.contentType(ContentType.URLENC));
        try (EventProbe events = EventProbe.on(bootstrap, Topics.EXECUTION_LIFECYCLE)) {
            for (var request : bodiless.entrySet()) {
                long ie = initJob(p, 1).statusCode(200).extract().jsonPath().getLong("instanceExecId");
                var termed = request.getValue().apply(given()).post("/jobs/" + p + "/term");
                assertThat(termed.statusCode()).as(request.getKey() + ": " + termed.asString()).isEqualTo(200);
                termed.then().body("state", equalTo("FAILED")).body("instanceExecId", equalTo((int) ie));
                given().get("/runs/" + ie).then().body("run.state", equalTo("FAILED"))
                        .body("run.failureCode", nullValue()).body("run.failureText", nullValue());
                var failed = events.await(JobFailed.class, e -> e.getInstanceExecId() == ie, WAIT);
                assertThat(failed.event().getErrorCode()).isNull();
                assertThat(failed.event().getErrorText()).isNull();
            }
        }
    }

    @Test
    void aTermJobReasonThatCannotBeStoredIsRefusedAndTheRunKeepsRunning() {
        long p = id(), s1 = id();
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p)));
        long ie = initJob(p, 1).statusCode(200).extract().jsonPath().getLong("instanceExecId");
        String longest = "x".repeat(2000);

        Map<String, Object> tooLong = Map.of("code", 1, "text", longest + "y");
        given().contentType(ContentType.JSON).body(tooLong).post("/jobs/" + p + "/term").then().statusCode(400)
                .contentType("application/problem+json").body("code", equalTo(1));
        for (String bad : List.of("{\"code\": 1.5}", "{\"code\": \"3\"}", "{\"code\": 99999999999}",
                "{\"text\": 12}", "{\"text\": \"a\\u0000b\"}", "[]", "{\"code\": 1} trailing")) {
            var refused = given().contentType(ContentType.JSON).body(bad).post("/jobs/" + p + "/term");
            assertThat(refused.statusCode()).as(bad).isEqualTo(400);
            assertThat(refused.contentType()).as(bad).startsWith("application/problem+json");
            assertThat(refused.jsonPath().getInt("code")).as(bad).isEqualTo(1);
        }
        // a body must be JSON; only a bodiless call may declare anything
        given().contentType(ContentType.TEXT).body("{\"code\": 3}").post("/jobs/" + p + "/term").then().statusCode(415)
                .contentType("application/problem+json").body("code", equalTo(8));
        given().get("/runs/" + ie).then().body("run.state", equalTo("RUNNING"))
                .body("run.failureCode", nullValue()).body("run.failureText", nullValue());
        given().get("/runs/" + ie + "/history").then().body("toState", equalTo(List.of(2)));

        // exactly at the limit is stored whole
        given().contentType(ContentType.JSON).body(Map.of("code", 1, "text", longest)).post("/jobs/" + p + "/term")
                .then().statusCode(200);
        given().get("/runs/" + ie).then().body("run.state", equalTo("FAILED")).body("run.failureText", equalTo(longest));
    }

    @Test
    void theOpenApiDocumentDescribesTermJobsOptionalJsonBody() {
        // The whole URI (its ?format=json included) goes to get(): a base URI would lose the query and get YAML.
        var body = given().noFilters().get(Management.ofApplicationUnderTest().openApi())
                .then().statusCode(200).extract().jsonPath();
        String op = "paths.'/jobs/{pid}/term'.post.requestBody";
        assertThat(body.getBoolean(op + ".required")).isFalse();
        assertThat(body.getMap(op + ".content")).containsOnlyKeys("application/json");
        String ref = body.getString(op + ".content.'application/json'.schema.'$ref'");
        String schema = "components.schemas." + ref.substring(ref.lastIndexOf('/') + 1);
        assertThat(body.getMap(schema + ".properties")).containsOnlyKeys("code", "text");
        assertThat(body.getInt(schema + ".properties.text.maxLength")).isEqualTo(2000);
    }

    @Test
    void haltStepTakesACommaListAndHistoryRecordsEveryTransition() {
        long p = id(), a = id(), b = id(), c = id();
        register(bootstrap, ProcessTrees.parent(p).next(a).step(a, s -> s.next(b, c)).step(b, s -> s.next(p))
                .step(c, s -> s.next(p)));
        long ie = initJob(p, 1).statusCode(200).extract().jsonPath().getLong("instanceExecId");
        post("/steps/" + a + "/init").statusCode(200);
        post("/steps/" + a + "/halt").statusCode(200);
        post("/steps/" + b + "/init").statusCode(200);
        post("/steps/" + c + "/init").statusCode(200);
        post("/steps/" + b + "," + c + "/halt").statusCode(200).body("subProcessIds", equalTo(List.of((int) b, (int) c)));
        post("/jobs/" + p + "/halt").statusCode(200);
        given().get("/runs/" + ie).then().statusCode(200).body("run.state", equalTo("SUCCESS")).body("steps.size()", equalTo(3));
        given().get("/runs/" + ie + "/history").then().body("toState", equalTo(List.of(2, 3))).body("cause", equalTo(List.of("InitJob", "HaltJob")));
    }

    @Test
    void ofTwoConcurrentInitJobsExactlyOneWins() throws Exception {
        long p = id(), s1 = id();
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p)));
        var a = CompletableFuture.supplyAsync(() -> initJob(p, 1).extract().response());
        var b = CompletableFuture.supplyAsync(() -> initJob(p, 1).extract().response());
        List<Integer> statuses = List.of(a.get().statusCode(), b.get().statusCode());
        assertThat(statuses).containsExactlyInAnyOrder(200, 409);
        var loser = a.get().statusCode() == 409 ? a.get() : b.get();
        assertThat(loser.jsonPath().getInt("code")).isEqualTo(104);
        given().queryParam("processId", p).queryParam("state", 2).get("/runs").then().body("total", equalTo(1));
        given().queryParam("processId", p).queryParam("state", "RUNNING").get("/runs").then().statusCode(200)
                .body("total", equalTo(1)).body("items[0].state", equalTo("RUNNING"));
        given().queryParam("processId", p).queryParam("state", "success").get("/runs").then().body("total", equalTo(0));
        given().queryParam("state", "BOGUS").get("/runs").then().statusCode(400).body("code", equalTo(1));
    }

    /**
     * A step's calls take its parent's lock (in the statement that reads the step) before they read or change any
     * run: while another transaction holds the parent's row, InitStep and HaltStep wait, and they go on once it ends.
     */
    @Test
    void stepCallsWaitForTheParentsLock() throws Exception {
        long p = id(), s1 = id();
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p)));
        initJob(p, 1).statusCode(200);
        for (String call : List.of("init", "halt")) {
            Infrastructure.Database db = BatchyardTestStack.database();
            try (Connection holder = lockingParent(db, p)) {
                var stepCall = CompletableFuture.supplyAsync(() -> post("/steps/" + s1 + "/" + call).extract()
                        .statusCode());
                await().atMost(WAIT).until(() -> waitingForALockOnTheStepRead(db));
                assertThat(stepCall).as("%s of the step while its parent is locked", call).isNotDone();
                holder.rollback();
                assertThat(stepCall.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(200);
            }
        }
        post("/jobs/" + p + "/halt").statusCode(200);
    }

    /**
     * A call reads the job's runs with the definition, before its lock is granted, and stages its event from them.
     * Here the lock's holder changes those runs before it lets go, as another call of the job could: each call must
     * still send the event of the run it actually moved.
     */
    @Test
    void aCallWhoseFirstReadWentStaleWhileItWaitedSendsTheEventOfTheRunItMoved() throws Exception {
        long p = id(), s1 = id(), s2 = id();
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(s2)).step(s2, s -> s.next(p)));
        Infrastructure.Database db = BatchyardTestStack.database();
        try (EventProbe events = EventProbe.on(bootstrap, Topics.EXECUTION_LIFECYCLE)) {
            long job = initJob(p, 1).statusCode(200).extract().jsonPath().getLong("instanceExecId");
            long firstStepRun = post("/steps/" + s1 + "/init").statusCode(200).extract().jsonPath()
                    .getLong("subInstanceExecId");

            // HaltStep read s1's first run; the holder ends it and starts another before the call gets the lock.
            long secondStepRun = whileTheCallWaits(db, p, "/steps/" + s1 + "/halt", holder ->
                    replaceRunningRun(holder, s1, firstStepRun, job));
            assertThat(events.await(StepHalted.class, e -> e.getSubProcessId() == s1, WAIT).event()
                    .getSubInstanceExecId()).isEqualTo(secondStepRun);
            given().get("/runs/" + secondStepRun).then().statusCode(200).body("run.state", equalTo("SUCCESS"));

            // InitStep read the job's first run; the holder replaces it, so the step starts under the second one.
            long secondJob = whileTheCallWaits(db, p, "/steps/" + s2 + "/init", holder ->
                    replaceRunningRun(holder, p, job, null));
            assertThat(events.await(StepStarted.class, e -> e.getSubProcessId() == s2, WAIT).event()
                    .getParentInstanceExecId()).isEqualTo(secondJob);
            post("/steps/" + s2 + "/halt").statusCode(200);

            // HaltJob read the second run; the holder replaces it by a third, which is the one halted.
            long thirdJob = whileTheCallWaits(db, p, "/jobs/" + p + "/halt", holder -> {
                try (PreparedStatement end = holder.prepareStatement("""
                        UPDATE instance_exec SET exec_state = 3, end_ts = now() WHERE process_id = ? AND exec_state = 2""")) {
                    end.setLong(1, s2);
                    end.executeUpdate();
                }
                return replaceRunningRun(holder, p, secondJob, null);
            });
            var halted = events.await(JobHalted.class, e -> e.getProcessId() == p, WAIT).event();
            assertThat(halted.getInstanceExecId()).isEqualTo(thirdJob);
            assertThat(halted.getTargetBatchId()).isEqualTo(thirdJob + 1_000_000);
        }
    }

    private interface Holder {
        long change(Connection holder) throws SQLException;
    }

    /** Holds the parent's lock while {@code path} is called, makes the holder's change, and lets the call through. */
    private static long whileTheCallWaits(Infrastructure.Database db, long parent, String path, Holder change)
            throws Exception {
        try (Connection holder = lockingParent(db, parent)) {
            var call = CompletableFuture.supplyAsync(() -> post(path).extract().statusCode());
            await().atMost(WAIT).until(() -> waitingForALock(db, "%process_definition%"));
            long changed = change.change(holder);
            holder.commit();
            assertThat(call.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as(path).isEqualTo(200);
            return changed;
        }
    }

    /** A connection in a transaction that holds the lock a lifecycle call of {@code parent} takes first. */
    private static Connection lockingParent(Infrastructure.Database db, long parent) throws SQLException {
        Connection holder = db.connect();
        holder.setAutoCommit(false);
        try (PreparedStatement lock = holder.prepareStatement(
                "SELECT process_id FROM process_definition WHERE process_id = ? FOR UPDATE")) {
            lock.setLong(1, parent);
            lock.executeQuery().close();
        }
        return holder;
    }

    /**
     * Ends {@code run} of {@code process} and inserts another running run in its place (under {@code parentRun}, for
     * a step; a job's gets a target batch of its id + 1,000,000); returns the new run's id.
     */
    private static long replaceRunningRun(Connection holder, long process, long run, Long parentRun)
            throws SQLException {
        try (PreparedStatement end = holder.prepareStatement(
                "UPDATE instance_exec SET exec_state = 3, end_ts = now() WHERE instance_exec_id = ?")) {
            end.setLong(1, run);
            end.executeUpdate();
        }
        try (PreparedStatement start = holder.prepareStatement("""
                INSERT INTO instance_exec (instance_exec_id, process_id, parent_instance_exec_id, exec_state,
                  target_batch_id)
                SELECT n, ?, ?, 2, CASE WHEN CAST(? AS bigint) IS NULL THEN n + 1000000
                  ELSE (SELECT target_batch_id FROM instance_exec WHERE instance_exec_id = ?) END
                FROM (SELECT nextval('instance_exec_seq') AS n) s
                RETURNING instance_exec_id""")) {
            start.setLong(1, process);
            start.setObject(2, parentRun);
            start.setObject(3, parentRun);
            start.setObject(4, parentRun);
            try (ResultSet rs = start.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Exactly one statement like {@code query} waits for a lock in the service's database. */
    private static boolean waitingForALock(Infrastructure.Database db, String query) throws SQLException {
        try (Connection c = db.connect();
             PreparedStatement waiting = c.prepareStatement("""
                     SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
                     AND wait_event_type = 'Lock' AND query LIKE ?""")) {
            waiting.setString(1, query);
            try (ResultSet rs = waiting.executeQuery()) {
                return rs.next() && rs.getLong(1) == 1;
            }
        }
    }

    private static boolean waitingForALockOnTheStepRead(Infrastructure.Database db) throws SQLException {
        return waitingForALock(db, "%parent_locked%");
    }

    static ValidatableResponse initJob(long p, Integer maxBatch) {
        java.util.HashMap<String, Object> body = new java.util.HashMap<>();
        body.put("maxBatch", maxBatch);
        return given().contentType(ContentType.JSON).body(body).post("/jobs/" + p + "/init").then();
    }

    static ValidatableResponse post(String path) {
        return given().contentType(ContentType.JSON).post(path).then();
    }

    static void expect(ValidatableResponse r, int status, int code, String detail) {
        r.statusCode(status).contentType("application/problem+json").body("code", equalTo(code))
                .body("detail", containsString(detail));
    }
}
