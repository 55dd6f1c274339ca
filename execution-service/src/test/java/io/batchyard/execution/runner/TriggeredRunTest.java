package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.deployment.DeployPoller;
import io.batchyard.execution.deployment.Deployment;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /** A one-step on-batch parent whose step appends its bucket to {@code calls-<parent>} after {@code before}. */
    private long onBatchParent(String before, boolean deployed) {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        int type = (int) p;
        String record = f.script("record" + p + ".sh", before + "\necho \"$BATCHYARD_BUCKET\" >> " + f.file("calls-" + p));
        f.register(ProcessTrees.parent(p).processType(type).workflowType(2).next(s)
                .step(s, st -> st.property("script", "run", record).next(p)));
        f.policy(p, Map.of());
        if (deployed) {
            deployScript(type);
            long id = given().post("/processes/" + p + "/deployments").then().statusCode(201).extract().jsonPath()
                    .getLong("deploymentId");
            await().atMost(WAIT).until(() -> {
                poller.pollOnce();
                return "SUCCESS".equals(given().get("/deployments/" + id).then().extract().jsonPath().getString("status"));
            });
        }
        given().contentType(ContentType.JSON).body(Map.of("policy", "on-batch")).put("/processes/" + p + "/trigger")
                .then().statusCode(200);
        return p;
    }

    private BatchEnqueued enqueued(long parent, long sourceBatchId) {
        long step = parent + 1; // the parent's only step (RunnerFixtures ids are consecutive)
        return BatchEnqueued.newBuilder().setHeader(Events.header("queue-service", null, null))
                .setQueueId(sourceBatchId).setSourceBatchId(sourceBatchId).setSourceProcessId(null)
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

    @Test
    void aParentThatIsNotDeployedIsNotStartedAndWhySaysSo() {
        long p = onBatchParent("", false);
        double before = triggers("not_deployed");
        f.publisher.publish(Topics.QUEUE_BATCHES, p + 1, enqueued(p, p * 10));

        await().atMost(WAIT).until(() -> triggers("not_deployed") > before);
        JsonPath why = given().get("/why/" + p).then().statusCode(200).extract().jsonPath();
        assertThat(why.getList("reasons.code", String.class)).contains("NOT_DEPLOYED");
        String text = why.getString("reasons.find { it.code == 'NOT_DEPLOYED' }.message");
        assertThat(text).startsWith("not deployed").contains("no deployment");
        assertThat(given().queryParam("processId", p).get("/runs").then().statusCode(200).extract().jsonPath()
                .getInt("total")).isZero();
        assertThat(f.lines("calls-" + p)).isEmpty();
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

    /** The current value of batchyard_triggers_total for the outcome, read as Prometheus does. */
    private static double triggers(String outcome) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("(?m)^batchyard_triggers_total\\{[^}]*outcome=\"" + outcome + "\"[^}]*\\} (\\S+)")
                .matcher(metrics);
        assertThat(m.find()).as("batchyard_triggers_total{outcome=%s} in %s", outcome, "/q/metrics").isTrue();
        return Double.parseDouble(m.group(1));
    }

    private void deployScript(int type) {
        try {
            Path p = f.scriptDir.resolve(Deployment.scriptFor(type));
            Files.writeString(p, "#!/bin/sh\ntrue\n");
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
