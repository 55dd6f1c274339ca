package io.batchyard.execution.backfill;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.events.execution.BackfillFinished;
import io.batchyard.events.execution.BackfillProgress;
import io.batchyard.execution.ExecutionFixtures;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.StubImpact;
import io.batchyard.execution.StubQueue;
import io.batchyard.persistence.Blocking;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The driver running a backfill on the real runner, database and broker: A (a root) feeds B. queue-service's walk and
 * its offers are {@link StubImpact}'s, its claims {@link StubQueue}'s, so the test holds what execution-service does:
 * the order, the batches each run claims and for which backfill, stop on failure, resume, and the events.
 */
@ExecutionTest
class BackfillRunTest {

    private static final String ADMIN = Identity.get().token("ada", Set.of("admin"), Set.of());
    private static final Duration WAIT = Duration.ofSeconds(60);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @ConfigProperty(name = "batchyard.runner.script-dir")
    String scriptDir;

    @Inject
    BackfillDriver driver;

    @Test
    void theRootRunsFirstOnItsRestatedBatchThenItsConsumerOnTheRemadeOneAndAFailureStopsUntilResumed()
            throws IOException {
        long app = ExecutionFixtures.id();
        long a = ExecutionFixtures.id(), as = ExecutionFixtures.id(), b = ExecutionFixtures.id(),
                bs = ExecutionFixtures.id();
        Path failFlag = Path.of(scriptDir).toAbsolutePath().resolve("backfill-fail-" + b);
        Files.createDirectories(failFlag.getParent());
        Files.writeString(failFlag, "fail");
        try (ExecutionFixtures f = new ExecutionFixtures(bootstrap)) {
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + app,
                    ProcessTrees.application(app, "olga", "ops", 7, 7, 4));
            f.register(ProcessTrees.parent(a).application(app).workflowType(2).next(as)
                    .step(as, s -> s.property("script", "run", script("backfill-a-" + a + ".sh", "exit 0")).next(a)));
            f.register(ProcessTrees.parent(b).application(app).workflowType(2).next(bs)
                    .step(bs, s -> s.property("script", "run", script("backfill-b-" + b + ".sh",
                            "if [ -f " + failFlag + " ]; then exit 3; fi")).next(b)));
        }
        for (long p : List.of(a, b)) {
            given().auth().oauth2(ADMIN).contentType(ContentType.JSON).body(Map.of()).put("/runner/processes/" + p)
                    .then().statusCode(200);
        }
        // queue-service's walk: A's run 8001 consumed batch 5 and made 8101, which B's run 8002 consumed
        StubImpact.answer(a, """
                {"fingerprint": "%s", "rowsRead": 2, "units": [
                  {"processId": %d, "runId": 8001, "targetBatchId": 8101, "status": "COMPLETED", "marking": "20260301",
                   "root": true, "inputBatchIds": [5], "causes": []},
                  {"processId": %d, "runId": 8002, "targetBatchId": 8102, "status": "COMPLETED", "marking": "20260301",
                   "root": false, "inputBatchIds": [8101], "causes": [{"processId": %d, "runId": 8001, "batchId": 8101}]}
                ]}""".formatted("bf".repeat(32), a, b, a));
        String planId = given().auth().oauth2(ADMIN).contentType(ContentType.JSON)
                .body(Map.of("roots", List.of(Map.of("processId", a)), "batchIds", List.of(5)))
                .post("/backfills/preview").then().statusCode(201).extract().jsonPath().getString("planId");

        try (EventProbe events = EventProbe.on(bootstrap, Topics.EXECUTION_BACKFILLS)) {
            String id = given().auth().oauth2(ADMIN).contentType(ContentType.JSON)
                    .body(Map.of("planId", planId, "concurrency", 2)).post("/backfills").then().statusCode(202)
                    .extract().jsonPath().getString("backfill.backfillId");
            String path = "/backfills/" + id;

            JsonPath failed = stepUntil(path, "FAILED");
            assertThat(failed.getList("progress.entryRuns.state", String.class)).containsExactly("SUCCEEDED",
                    "FAILED");
            assertThat(failed.getString("progress.entryRuns[1].message")).contains("failed");
            long remadeA = failed.getLong("progress.entryRuns[0].targetBatchId");
            // A re-read its restated batch, B was offered A's re-made output in place of 8101; both for this backfill
            assertThat(StubImpact.reenqueues()).anySatisfy(r -> assertThat(r).contains("\"batchId\":5")
                    .contains("\"processId\":" + a).contains(id));
            assertThat(StubImpact.reenqueues()).anySatisfy(r -> assertThat(r).contains("\"batchId\":8101")
                    .contains("\"offeredBatchId\":" + remadeA).contains("\"processId\":" + b));
            assertThat(StubQueue.lastClaim(a)).contains("\"sourceBatchIds\":[5]").contains(id);
            assertThat(StubQueue.lastClaim(b)).contains("\"sourceBatchIds\":[" + remadeA + "]").contains(id);
            BackfillFinished stopped = events.await(BackfillFinished.class, e -> e.getBackfillId().equals(id),
                    WAIT).event();
            assertThat(stopped.getState()).isEqualTo("FAILED");
            assertThat(stopped.getEntriesSucceeded()).isEqualTo(1);
            assertThat(stopped.getEntriesFailed()).isEqualTo(1);

            // fixed: resume re-runs only the failed entry
            Files.delete(failFlag);
            given().auth().oauth2(ADMIN).post(path + "/resume").then().statusCode(200);
            // resumed, it is live again: its entries count in the gauge, A's success among them
            await().atMost(WAIT).untilAsserted(() -> assertThat(PrometheusText.value(
                    Management.ofApplicationUnderTest().metricsText(), "batchyard_backfill_entries", "state",
                    "SUCCEEDED")).isGreaterThanOrEqualTo(1));
            JsonPath done = stepUntil(path, "SUCCEEDED");
            assertThat(done.getList("progress.entryRuns.state", String.class)).containsExactly("SUCCEEDED",
                    "SUCCEEDED");
            assertThat(done.getLong("progress.entryRuns[0].targetBatchId")).as("A is not redone").isEqualTo(remadeA);
            assertThat(given().auth().oauth2(ADMIN).queryParam("processId", a).get("/runs").then().extract()
                    .jsonPath().getList("items")).as("one run of A").hasSize(1);
            assertThat(given().auth().oauth2(ADMIN).queryParam("processId", b).get("/runs").then().extract()
                    .jsonPath().getList("items")).as("B failed once, then ran again").hasSize(2);
            events.await(BackfillProgress.class, e -> e.getBackfillId().equals(id) && Integer.valueOf(2)
                    .equals(e.getEntryNo()) && "SUCCEEDED".equals(e.getEntryState()), WAIT);
            assertThat(events.await(BackfillFinished.class, e -> e.getBackfillId().equals(id)
                    && e.getState().equals("SUCCEEDED"), WAIT).event().getEntriesSucceeded()).isEqualTo(2);
        }
    }

    @Test
    void aBucketThatNeverRanClaimsTheBatchesWaitingForItAndAFailedRunRetriesItsOwn() {
        long app = ExecutionFixtures.id();
        long r = ExecutionFixtures.id(), rs = ExecutionFixtures.id();
        try (ExecutionFixtures f = new ExecutionFixtures(bootstrap)) {
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + app,
                    ProcessTrees.application(app, "olga", "ops", 7, 7, 4));
            f.register(ProcessTrees.parent(r).application(app).workflowType(2).next(rs)
                    .step(rs, s -> s.property("script", "run", script("backfill-r-" + r + ".sh", "exit 0")).next(r)));
        }
        given().auth().oauth2(ADMIN).contentType(ContentType.JSON).body(Map.of()).put("/runner/processes/" + r)
                .then().statusCode(200);
        // batch 6 waits for a bucket that never ran; run 8301 of another bucket failed on batch 7
        StubImpact.answer(r, """
                {"fingerprint": "%s", "rowsRead": 2, "units": [
                  {"processId": %d, "runId": null, "targetBatchId": null, "status": "MISSING", "marking": "20260305",
                   "root": true, "inputBatchIds": [6], "causes": []},
                  {"processId": %d, "runId": 8301, "targetBatchId": 8401, "status": "FAILED", "marking": "20260306",
                   "root": true, "inputBatchIds": [7], "causes": []}
                ]}""".formatted("ce".repeat(32), r, r));
        String planId = given().auth().oauth2(ADMIN).contentType(ContentType.JSON)
                .body(Map.of("roots", List.of(Map.of("processId", r)), "batchIds", List.of(6, 7)))
                .post("/backfills/preview").then().statusCode(201).extract().jsonPath().getString("planId");
        String id = given().auth().oauth2(ADMIN).contentType(ContentType.JSON)
                .body(Map.of("planId", planId)).post("/backfills").then().statusCode(202)
                .extract().jsonPath().getString("backfill.backfillId");

        JsonPath done = stepUntil("/backfills/" + id, "SUCCEEDED");
        assertThat(done.getList("progress.entryRuns.bucket", String.class)).containsExactly("20260305", "20260306");
        // nothing was offered again: the waiting batch is claimed by name, the failed run's by the ordinary claim
        assertThat(StubImpact.reenqueues()).noneSatisfy(q -> assertThat(q).contains(id));
        List<String> claims = StubQueue.claimBodies(r);
        assertThat(claims).hasSize(2);
        assertThat(claims.get(0)).contains("\"sourceBatchIds\":[6]").contains(id);
        assertThat(claims.get(1)).doesNotContain("\"sourceBatchIds\":[").contains(id);
    }

    /** Steps the driver (its schedule is off in tests) until the backfill is in {@code state}. */
    private JsonPath stepUntil(String path, String state) {
        return await().atMost(WAIT).pollInterval(Duration.ofMillis(300)).until(() -> {
            Blocking.await(() -> driver.tick());
            return given().auth().oauth2(ADMIN).get(path).then().statusCode(200).extract().jsonPath();
        }, j -> state.equals(j.getString("backfill.state")));
    }

    private String script(String name, String body) {
        try {
            Path dir = Files.createDirectories(Path.of(scriptDir).toAbsolutePath());
            Path p = dir.resolve(name);
            Files.writeString(p, "#!/bin/sh\n" + body + "\n");
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
            return name;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
