package io.batchyard.queue;

import io.batchyard.teststack.identity.Identity;
import static io.restassured.RestAssured.given;

import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.StepFailed;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventPublisher;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;

/** Drives queue-service the way its real neighbours do: registry trees and lifecycle events over Kafka, REST calls. */
public final class QueueFixtures implements AutoCloseable {

    /** Ids far apart per test class run, so tests sharing the database and topics never collide. */
    private static final AtomicLong IDS = new AtomicLong(100_000 + (System.nanoTime() % 1000) * 1000);

    public final EventPublisher publisher;

    public QueueFixtures(String bootstrap) {
        publisher = new EventPublisher(bootstrap);
    }

    public static long nextId() {
        return IDS.incrementAndGet();
    }

    /** Publishes a tree and waits until queue-service's read model has every process of it. */
    public void register(ProcessTrees tree) {
        tree.register(publisher, Duration.ofSeconds(30));
    }

    public static ValidatableResponse claim(long parent, long instanceExecId, Integer maxBatch) {
        return claim(parent, instanceExecId, maxBatch, null);
    }

    /** A claim that also names the target batch of the parent's last successful run, as execution-service does. */
    public static ValidatableResponse claim(long parent, long instanceExecId, Integer maxBatch, Long completedTarget) {
        Map<String, Object> body = new HashMap<>();
        body.put("completedTargetBatchId", completedTarget);
        body.put("parentProcessId", parent);
        body.put("instanceExecId", instanceExecId);
        body.put("maxBatch", maxBatch);
        return given().auth().oauth2(Identity.get().serviceToken("execution")).contentType(ContentType.JSON).body(body).post("/internal/claims").then();
    }

    public static long enqueueBatch(long upstream, Long batchId, String marking) {
        Map<String, Object> body = new HashMap<>();
        body.put("enqueuingProcessId", upstream);
        body.put("batchId", batchId);
        body.put("serverId", 123461);
        body.put("files", List.of(Map.of("path", "/data/" + upstream + "/" + nextId() + ".csv", "fileSize", 10)));
        body.put("batchMarking", marking);
        return given().contentType(ContentType.JSON).body(body).post("/batches").then().statusCode(201)
                .extract().jsonPath().getLong("batchId");
    }

    public StepStarted stepStarted(long parent, long step, long ie, long target) {
        return sent(parent, StepStarted.newBuilder().setHeader(Events.header("test", ie, null)).setParentProcessId(parent)
                .setSubProcessId(step).setSubInstanceExecId(nextId()).setParentInstanceExecId(ie).setTargetBatchId(target).build());
    }

    public StepHalted stepHalted(long parent, long step, long ie, long target) {
        return sent(parent, StepHalted.newBuilder().setHeader(Events.header("test", ie, null)).setParentProcessId(parent)
                .setSubProcessId(step).setSubInstanceExecId(nextId()).setParentInstanceExecId(ie).setTargetBatchId(target).build());
    }

    public StepFailed stepFailed(long parent, long step, long ie, long target) {
        return sent(parent, StepFailed.newBuilder().setHeader(Events.header("test", ie, null)).setParentProcessId(parent)
                .setSubProcessId(step).setSubInstanceExecId(nextId()).setParentInstanceExecId(ie).setTargetBatchId(target).build());
    }

    public JobHalted jobHalted(long parent, long ie, long targetBatch, String marking) {
        return sent(parent, JobHalted.newBuilder().setHeader(Events.header("test", ie, null)).setProcessId(parent)
                .setInstanceExecId(ie).setTargetBatchId(targetBatch).setBatchMarking(marking).build());
    }

    public JobFailed jobFailed(long parent, long ie, long targetBatch) {
        return sent(parent, JobFailed.newBuilder().setHeader(Events.header("test", ie, null)).setProcessId(parent)
                .setInstanceExecId(ie).setTargetBatchId(targetBatch).build());
    }

    private <T extends SpecificRecord> T sent(long key, T event) {
        send(key, event);
        return event;
    }

    public void send(long key, SpecificRecord event) {
        publisher.publish(Topics.EXECUTION_LIFECYCLE, key, event);
    }

    @Override
    public void close() {
        publisher.close();
    }
}
