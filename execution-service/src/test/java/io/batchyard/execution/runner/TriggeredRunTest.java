package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.StubOrchestrator;
import io.batchyard.execution.StubQueue;
import io.batchyard.execution.deployment.DeployPoller;
import io.batchyard.execution.deployment.Deployment;
import io.batchyard.execution.schedule.RunnerScheduler;
import io.batchyard.execution.trigger.TriggerSweep;
import io.batchyard.persistence.Blocking;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.Management;
import io.batchyard.teststack.PrometheusText;
import io.batchyard.teststack.ProcessTrees;
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
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Data-aware triggering end to end on the runner: BatchEnqueued records on the real topic start an on-batch parent
 * once, a parent that is not deployed is not started and says so in /why, and a trigger during a run waits for it.
 */
@ExecutionTest
class TriggeredRunTest extends RunnerTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    DeployPoller poller;

    @Inject
    RunnerScheduler scheduler;

    @Inject
    TriggerSweep sweep;

    /** A one-step on-batch parent whose step appends its bucket to {@code calls-<parent>} after {@code before}. */
    private long onBatchParent(String before, boolean deployed) {
        return triggeredParent(before, deployed, "on-batch");
    }

    /** A one-step parent of the policy whose step (enqueued by {@code enqueuers}) appends its bucket to a file. */
    private long triggeredParent(String before, boolean deployed, String policy, long... enqueuers) {
        return triggeredParent(before, deployed, policy, Map.of(), null, enqueuers);
    }

    /**
     * As above, with these run policy fields and, unless null, the parent property {@code runner/max-batch}. Without
     * either the parent is registered as the README's steps register one: nothing says how many batches a run
     * claims.
     */
    private long triggeredParent(String before, boolean deployed, String policy, Map<String, Object> runPolicy,
                                 String maxBatchProperty, long... enqueuers) {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        int type = (int) p;
        String record = f.script("record" + p + ".sh", before + "\necho \"$BATCHYARD_BUCKET\" >> " + f.file("calls-" + p));
        ProcessTrees tree = ProcessTrees.parent(p).processType(type).workflowType(2);
        if (maxBatchProperty != null) {
            tree.property("runner", "max-batch", maxBatchProperty);
        }
        f.register(tree.next(s).step(s, st -> st.enqueuedBy(enqueuers).property("script", "run", record).next(p)));
        f.policy(p, runPolicy);
        if (deployed) {
            deploy(p, type);
        }
        given().contentType(ContentType.JSON).body(Map.of("policy", policy)).put("/processes/" + p + "/trigger")
                .then().statusCode(200);
        return p;
    }

    /** Deploys the parent (its type's script succeeds) and waits for the deployment's SUCCESS. */
    private void deploy(long p, int type) {
        deployScript(type);
        requestDeployment(p, "SUCCESS");
    }

    private BatchEnqueued enqueued(long parent, long sourceBatchId) {
        return enqueued(parent, sourceBatchId, null);
    }

    /** A batch of {@code sourceProcessId} (null: enqueued by hand) for the parent's only step. */
    private BatchEnqueued enqueued(long parent, long sourceBatchId, Long sourceProcessId) {
        long step = parent + 1; // the parent's only step (RunnerFixtures ids are consecutive)
        return BatchEnqueued.newBuilder().setHeader(Events.header("queue-service", null, null))
                .setQueueId(sourceBatchId).setSourceBatchId(sourceBatchId).setSourceProcessId(sourceProcessId)
                .setConsumerProcessId(step).setBatchMarking(null).build();
    }

    @Test
    void aDuplicatedBatchEnqueuedStartsExactlyOneRun() {
        long p = onBatchParent("", true);
        double startedBefore = triggers("started");
        BatchEnqueued event = enqueued(p, p * 10);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, event);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, event);

        String bucket = "batch-" + p * 10;
        await().atMost(WAIT).until(() -> "COMPLETE".equals(f.status(p, bucket)) && triggers("started") > startedBefore);
        // the duplicate's ledger row is written after the original's: once the run is done, so is the duplicate
        assertThat(triggers("started")).isEqualTo(startedBefore + 1);
        assertThat(f.lines("calls-" + p)).containsExactly(bucket);
        assertThat(given().queryParam("processId", p).get("/runs").then().statusCode(200).extract().jsonPath()
                .getInt("total")).isEqualTo(1);
    }

    /**
     * A batch for a step whose parent takes no trigger (policy none) decides nothing: it is counted as ignored, starts
     * no run, and is decided from one read without a transaction, so it leaves no ledger row; its redelivery is
     * decided the same way.
     */
    @Test
    void aBatchForAParentWithPolicyNoneIsIgnoredWithoutALedgerRowAndStartsNothing() throws Exception {
        long p = triggeredParent("", true, "none");
        double ignoredBefore = triggers("ignored");
        BatchEnqueued event = enqueued(p, p * 10);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, event);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, event);

        await().atMost(WAIT).until(() -> triggers("ignored") >= ignoredBefore + 2);
        assertThat(BatchyardTestStack.database().firstColumn("SELECT count(*) FROM processed_event WHERE event_id = '"
                + UUID.fromString(String.valueOf(event.getHeader().getEventId())) + "'")).containsExactly("0");
        assertThat(given().queryParam("processId", p).get("/runs").then().statusCode(200).extract().jsonPath()
                .getInt("total")).isZero();
    }

    /**
     * A downstream job as the README registers it: its step consumes an upstream job's batches and nothing names a max
     * batch. Its triggered run claims one batch per step (InitJob refused the runner's null with 101 before, and the
     * bucket failed); a run policy's maxBatchSize, or the parent property runner/max-batch before it, says otherwise.
     */
    @Test
    void aTriggeredRunOfAnEnqueuedStepClaimsOneBatchPerStepUnlessTheParentSaysHowMany() {
        long upstream = RunnerFixtures.id();
        long plain = triggeredParent("", true, "on-batch", Map.of(), null, upstream);
        long sized = triggeredParent("", true, "on-batch", Map.of("batch", true, "maxBatchSize", 3), null, upstream);
        long property = triggeredParent("", true, "on-batch", Map.of("maxBatchSize", 3), "10", upstream);
        for (long p : List.of(plain, sized, property)) {
            f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10, upstream));
        }
        for (long p : List.of(plain, sized, property)) {
            String bucket = "batch-" + p * 10;
            await().atMost(WAIT).until(() -> f.status(p, bucket) != null && !"INIT".equals(f.status(p, bucket))
                    && !"RUNNING".equals(f.status(p, bucket)));
            assertThat(f.status(p, bucket)).as("bucket of %d", p).isEqualTo("COMPLETE");
            assertThat(f.lines("calls-" + p)).containsExactly(bucket);
        }
        assertThat(StubQueue.lastClaim(plain)).contains("\"maxBatch\":1");
        assertThat(StubQueue.lastClaim(sized)).contains("\"maxBatch\":3");
        assertThat(StubQueue.lastClaim(property)).contains("\"maxBatch\":10");
    }

    @Test
    void aMaxBatchPropertyThatIsNoNumberFailsTheBucketBeforeInitJob() {
        long upstream = RunnerFixtures.id();
        long p = triggeredParent("", true, "on-batch", Map.of(), "lots", upstream);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10, upstream));

        String bucket = "batch-" + p * 10;
        await().atMost(WAIT).until(() -> "FAILED".equals(f.status(p, bucket)));
        assertThat(given().queryParam("limit", 500).get("/runner/processes/" + p + "/buckets").then().statusCode(200)
                .extract().jsonPath().getString("items.find { it.bucket == '" + bucket + "' }.message"))
                .isEqualTo("property runner/max-batch of parent " + p
                        + " must be a whole number of at least 1, got 'lots'");
        assertThat(StubQueue.lastClaim(p)).isNull();
        assertThat(f.lines("calls-" + p)).isEmpty();
    }

    @Test
    void aParentThatIsNotDeployedIsNotStartedAndWhySaysSo() {
        long p = onBatchParent("", false);
        double before = triggers("not_deployed");
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10));

        await().atMost(WAIT).until(() -> triggers("not_deployed") > before);
        JsonPath why = given().get("/why/" + p).then().statusCode(200).extract().jsonPath();
        assertThat(why.getList("reasons.code", String.class)).contains("NOT_DEPLOYED");
        // the words BDRE users know, with the parent's name, then why: never deployed
        assertThat(notDeployed(p)).isEqualTo("p" + p + " has not been deployed. Please deploy it (POST /processes/" + p
                + "/deployments): parent " + p + " is started by its data only once its latest deployment succeeded, "
                + "and it has no deployment");
        assertThat(given().queryParam("processId", p).get("/runs").then().statusCode(200).extract().jsonPath()
                .getInt("total")).isZero();
        assertThat(f.lines("calls-" + p)).isEmpty();

        // a deployment that failed: the same words, then its state and why it failed
        script(Deployment.scriptFor((int) p), "echo 'cluster unreachable' >&2; exit 3");
        long failed = requestDeployment(p, "FAIL");
        assertThat(notDeployed(p)).startsWith("p" + p + " has not been deployed. Please deploy it")
                .endsWith("and its latest deployment " + failed + " is FAIL: exit code 3: cluster unreachable");

        // deployed at last (its process type's script succeeds): nothing keeps a trigger from starting it
        script(Deployment.scriptFor((int) p), "true");
        requestDeployment(p, "SUCCESS");
        assertThat(given().get("/why/" + p).then().statusCode(200).extract().jsonPath()
                .getList("reasons.code", String.class)).doesNotContain("NOT_DEPLOYED");
    }

    /** The NOT_DEPLOYED reason /why gives for the parent, or null. */
    private static String notDeployed(long p) {
        return given().get("/why/" + p).then().statusCode(200).extract().jsonPath()
                .getString("reasons.find { it.code == 'NOT_DEPLOYED' }.message");
    }

    /** Requests a deployment of the parent and polls until it ends in {@code state}; answers its id. */
    private long requestDeployment(long p, String state) {
        long id = given().post("/processes/" + p + "/deployments").then().statusCode(201).extract().jsonPath()
                .getLong("deploymentId");
        await().atMost(WAIT).until(() -> {
            poller.pollOnce();
            return state.equals(given().get("/deployments/" + id).then().extract().jsonPath().getString("status"));
        });
        return id;
    }

    @Test
    void aTriggerDuringARunIsQueuedAndStartsTheNextRunWhenItEnds() throws IOException {
        Path go = f.file("go");
        long p = onBatchParent("i=0; while [ ! -f " + go + " ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done", true);
        double queuedBefore = triggers("queued");
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10));
        await().atMost(WAIT).until(() -> "RUNNING".equals(f.status(p, "batch-" + p * 10)));

        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10 + 1));
        await().atMost(WAIT).until(() -> triggers("queued") > queuedBefore);
        assertThat(f.status(p, "batch-" + (p * 10 + 1))).isEqualTo("INIT");

        Files.writeString(go, "go");
        await().atMost(WAIT).until(() -> "COMPLETE".equals(f.status(p, "batch-" + (p * 10 + 1))));
        assertThat(f.lines("calls-" + p)).containsExactly("batch-" + p * 10, "batch-" + (p * 10 + 1));
    }

    /**
     * all (the old all-enqueuers) over batches without a bucket of their own: the n-th batch of each enqueuer meet in
     * one bucket, named after the first of them, and each complete set is one run claiming exactly its batches; a
     * batch enqueued by hand (no source process) counts for none.
     */
    @Test
    void anAllParentPairsItsEnqueuersUnmarkedBatchesInArrivalOrderAndRunsOncePerCompleteSet() {
        long u1 = RunnerFixtures.id(), u2 = RunnerFixtures.id();
        long p = triggeredParent("", true, "all-enqueuers", u1, u2);
        double waiting = triggers("waiting");

        // u1 delivers, twice: two buckets wait for u2, and /why says which is the oldest and what it misses
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10, u1));
        await().atMost(WAIT).until(() -> triggers("waiting") >= waiting + 1);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10 + 1, u1));
        await().atMost(WAIT).until(() -> triggers("waiting") >= waiting + 2);
        JsonPath why = given().get("/why/" + p).then().statusCode(200).extract().jsonPath();
        assertThat(why.getString("reasons.find { it.code == 'WAITING_FOR_BUCKET' }.message"))
                .startsWith("bucket batch-" + p * 10 + " of parent " + p + " waits").contains("missing [" + u2)
                .endsWith("1 more bucket(s) wait");
        assertThat(why.getList("waiting.bucket", String.class)).containsExactly("batch-" + p * 10,
                "batch-" + (p * 10 + 1));
        assertThat(f.lines("calls-" + p)).isEmpty();

        // u2 delivers: the oldest set is complete, its run claims u1's first batch and u2's
        String bucket = "batch-" + p * 10;
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10 + 2, u2));
        await().atMost(WAIT).until(() -> "COMPLETE".equals(f.status(p, bucket)));
        assertThat(f.lines("calls-" + p)).containsExactly(bucket);
        assertThat(StubQueue.lastClaim(p)).contains("\"sourceBatchIds\":[" + p * 10 + "," + (p * 10 + 2) + "]");

        // a batch enqueued by hand counts for none; u2's next batch completes the second set
        double waitingAfterRun = triggers("waiting");
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10 + 4, null));
        await().atMost(WAIT).until(() -> triggers("waiting") >= waitingAfterRun + 1);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10 + 3, u2));
        String second = "batch-" + (p * 10 + 1);
        await().atMost(WAIT).until(() -> "COMPLETE".equals(f.status(p, second)));
        assertThat(StubQueue.lastClaim(p)).contains("\"sourceBatchIds\":[" + (p * 10 + 1) + "," + (p * 10 + 3) + "]");
        assertThat(f.lines("calls-" + p)).containsExactly(bucket, second);
    }

    @Test
    void aStartThatFailsAfterTheDecisionIsRetriedCountedAndLeftToTheRunnersTick() {
        long p = onBatchParent("", true);
        double failed = triggers("failed");
        String bucket = "batch-" + p * 10;
        // a runner that is shutting down refuses every launch: the committed decision cannot start its run
        assertThat(scheduler.drain(Duration.ofSeconds(5))).isTrue();
        try {
            f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10));
            await().atMost(WAIT).until(() -> triggers("failed") > failed);
            assertThat(f.status(p, bucket)).isEqualTo("INIT");
        } finally {
            scheduler.resume();
        }
        // the decided trigger run is pending: its start was lost
        assertThat(triggerRuns(p).getString("items[0].state")).isEqualTo("PENDING");
        // the trigger's bucket waited for the runner: its next tick runs it, and the trigger run is its
        scheduler.tick(java.time.Instant.now());
        await().atMost(WAIT).until(() -> "COMPLETE".equals(f.status(p, bucket)));
        assertThat(f.lines("calls-" + p)).containsExactly(bucket);
        JsonPath started = triggerRuns(p);
        long run = given().queryParam("processId", p).get("/runs").then().statusCode(200).extract().jsonPath()
                .getLong("items[0].instanceExecId");
        assertThat(started.getString("items[0].state")).isEqualTo("STARTED");
        assertThat(started.getLong("items[0].instanceExecId")).isEqualTo(run);
        assertThat(StubQueue.lastClaim(p)).contains("\"sourceBatchIds\":[" + p * 10 + "]");
        // a second start attempt finds it started: nothing is claimed, no second run
        assertThat(Blocking.await(() -> scheduler.launchNow(p)).claimed()).isEmpty();
        assertThat(triggerRuns(p).getInt("total")).isEqualTo(1);
        assertThat(given().queryParam("processId", p).get("/runs").then().statusCode(200).extract().jsonPath()
                .getInt("total")).isEqualTo(1);
    }

    /**
     * queue-service down when the trigger's run starts: InitJob is refused as unavailable (503), which says nothing
     * about the bucket, so it waits again (INIT, no attempt counted) with its trigger run PENDING, and a tick after
     * queue-service is back starts it, once, claiming the attributed batch.
     */
    @Test
    void aStartRefusedBecauseQueueServiceIsUnavailableWaitsForTheNextTickAndRunsOnce() {
        long p = onBatchParent("", true);
        String bucket = "batch-" + p * 10;
        // every attempt of the first InitJob's claim (its client tries three times) finds queue-service unavailable
        StubQueue.unavailableFor(p, 3);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10));

        await().atMost(WAIT).until(() -> StubQueue.claimsOf(p) >= 3 && "INIT".equals(f.status(p, bucket)));
        JsonPath waiting = given().queryParam("limit", 500).get("/runner/processes/" + p + "/buckets").then()
                .statusCode(200).extract().jsonPath();
        assertThat(waiting.getInt("items.find { it.bucket == '" + bucket + "' }.attempts")).isZero();
        assertThat(waiting.getString("items.find { it.bucket == '" + bucket + "' }.message"))
                .startsWith("InitJob refused: ");
        assertThat(triggerRuns(p).getString("items[0].state")).isEqualTo("PENDING");
        assertThat(f.lines("calls-" + p)).isEmpty();

        // queue-service answers again: the runner's tick starts the bucket (ticking until the first start's thread
        // has let the parent go)
        await().atMost(WAIT).until(() -> {
            scheduler.tick(java.time.Instant.now());
            return "COMPLETE".equals(f.status(p, bucket));
        });
        assertThat(f.lines("calls-" + p)).containsExactly(bucket);
        JsonPath runs = given().queryParam("processId", p).get("/runs").then().statusCode(200).extract().jsonPath();
        assertThat(runs.getInt("total")).isEqualTo(1);
        JsonPath started = triggerRuns(p);
        assertThat(started.getInt("total")).isEqualTo(1);
        assertThat(started.getString("items[0].state")).isEqualTo("STARTED");
        assertThat(started.getLong("items[0].instanceExecId")).isEqualTo(runs.getLong("items[0].instanceExecId"));
        assertThat(StubQueue.lastClaim(p)).contains("\"sourceBatchIds\":[" + p * 10 + "]");
        assertThat(StubQueue.claimsOf(p)).isEqualTo(4);
    }

    /** A deployed on-batch Oozie parent (workflow type 1) with one step: the launcher hook starts it, not the runner. */
    private long oozieParent() {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        int type = (int) p;
        f.register(ProcessTrees.parent(p).processType(type).workflowType(1).next(s).step(s, st -> st.next(p)));
        deploy(p, type);
        given().contentType(ContentType.JSON).body(Map.of("policy", "on-batch")).put("/processes/" + p + "/trigger")
                .then().statusCode(200);
        return p;
    }

    @Test
    void anOozieParentIsLaunchedThroughTheHookOncePerTriggerAndAFailedLaunchIsRetriedThenReported() {
        long p = oozieParent();
        double launched = triggers("launched"), failed = triggers("failed");

        // a trigger and its duplicate, then a second trigger: two calls of the orchestrator
        BatchEnqueued first = enqueued(p, p * 10);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, first);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, first);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10 + 1));
        await().atMost(WAIT).until(() -> triggers("launched") >= launched + 2);
        List<String> calls = StubOrchestrator.calls(p);
        assertThat(calls).hasSize(2);
        assertThat(calls.get(0)).contains("\"processId\":" + p, "\"workflowTypeId\":1", "\"workflowType\":\"oozie\"",
                "\"sourceBatchId\":" + p * 10, "\"consumerProcessId\":" + (p + 1),
                "\"eventId\":\"" + first.getHeader().getEventId() + "\"", "\"bucket\":\"batch-" + p * 10 + "\"");
        assertThat(calls.get(1)).contains("\"sourceBatchId\":" + (p * 10 + 1));
        // the runner was not asked: no run of the parent
        assertThat(given().queryParam("processId", p).get("/runs").then().statusCode(200).extract().jsonPath()
                .getInt("total")).isZero();

        // an orchestrator that keeps failing: every attempt made (3), then the trigger is failed and /why says why
        StubOrchestrator.failNext(p, 3);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10 + 2));
        await().atMost(WAIT).until(() -> triggers("failed") > failed);
        assertThat(StubOrchestrator.calls(p)).hasSize(5);
        JsonPath why = given().get("/why/" + p).then().statusCode(200).extract().jsonPath();
        assertThat(why.getString("reasons.find { it.code == 'LAUNCH_FAILED' }.message")).startsWith("launch failed")
                .contains("answered 503", "orchestrator unavailable");

        // one failure is retried and the launch succeeds: the reason is gone
        StubOrchestrator.failNext(p, 1);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10 + 3));
        await().atMost(WAIT).until(() -> triggers("launched") >= launched + 3);
        assertThat(StubOrchestrator.calls(p)).hasSize(7);
        assertThat(given().get("/why/" + p).then().statusCode(200).extract().jsonPath()
                .getList("reasons.code", String.class)).doesNotContain("LAUNCH_FAILED");
        assertThat(triggers("failed")).isEqualTo(failed + 1);
    }

    private static JsonPath triggerRuns(long p) {
        return given().get("/processes/" + p + "/trigger/runs").then().statusCode(200).extract().jsonPath();
    }

    /**
     * A launch whose every attempt failed leaves its trigger run pending; once batchyard.trigger.relaunch-after has
     * passed on the service clock, the sweep calls the hook again with the first call's event id, and the run starts.
     */
    @Test
    void anOozieRunWhoseLaunchFailedIsLaunchedAgainByTheSweepWithTheSameEventId() {
        long p = oozieParent();
        double failed = triggers("failed");
        StubOrchestrator.failNext(p, 3);
        BatchEnqueued event = enqueued(p, p * 10);
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, event);
        await().atMost(WAIT).until(() -> triggers("failed") > failed);
        assertThat(triggerRuns(p).getString("items[0].state")).isEqualTo("PENDING");
        int calls = StubOrchestrator.calls(p).size();

        sweep.sweepOnce();
        assertThat(StubOrchestrator.calls(p)).as("not before relaunch-after").hasSize(calls);
        try {
            given().contentType(ContentType.JSON).body(Map.of("offsetSeconds", 600)).put("/admin/clock").then()
                    .statusCode(200);
            sweep.sweepOnce();
        } finally {
            given().delete("/admin/clock").then().statusCode(200);
        }
        await().atMost(WAIT).until(() -> "STARTED".equals(triggerRuns(p).getString("items[0].state")));
        List<String> all = StubOrchestrator.calls(p);
        assertThat(all).hasSize(calls + 1);
        assertThat(all.get(all.size() - 1)).contains("\"eventId\":\"" + event.getHeader().getEventId() + "\"",
                "\"triggerRunId\":" + triggerRuns(p).getLong("items[0].id"));
        assertThat(given().get("/why/" + p).then().statusCode(200).extract().jsonPath()
                .getList("reasons.code", String.class)).doesNotContain("LAUNCH_FAILED");
    }

    /** The current value of batchyard_triggers_total for the outcome, read as Prometheus does. */
    private static double triggers(String outcome) {
        String metrics = Management.ofApplicationUnderTest().metricsText();
        return PrometheusText.value(metrics, "batchyard_triggers_total", "outcome", outcome);
    }

    private void deployScript(int type) {
        script(Deployment.scriptFor(type), "true");
    }

    /** An executable script of the runner's script directory itself (a deployment script lives there). */
    private void script(String name, String body) {
        try {
            Path p = f.scriptDir.resolve(name);
            Files.writeString(p, "#!/bin/sh\n" + body + "\n");
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
