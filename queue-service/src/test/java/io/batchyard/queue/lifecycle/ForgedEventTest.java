package io.batchyard.queue.lifecycle;

import static io.batchyard.queue.QueueFixtures.claim;
import static io.batchyard.queue.QueueFixtures.enqueueBatch;
import static io.batchyard.queue.QueueFixtures.nextId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.DeadLetters;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Lifecycle events that contradict the claims queue-service holds change nothing and land on the dead-letter topic
 * with a reason naming the run; the genuine events of the same runs still work afterwards. Every event of a test is
 * keyed by its parent, so once a forged event is dead-lettered everything sent before it has been applied.
 */
@QueueTest
class ForgedEventTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String DLQ = "batchyard.dlq.queue-service.lifecycle";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    private QueueFixtures f;
    private EventProbe batchEvents;

    @BeforeEach
    void open() {
        f = new QueueFixtures(bootstrap);
        batchEvents = EventProbe.on(bootstrap, Topics.QUEUE_BATCHES);
    }

    @AfterEach
    void close() {
        batchEvents.close();
        f.close();
    }

    @Test
    void aJobHaltedOfAnInventedRunNamingARunningRunsTargetIsDeadLetteredAndTheGenuineOneStillFansOut() {
        long src = nextId(), job = nextId(), step = nextId(), down = nextId(), downStep = nextId();
        f.register(ProcessTrees.parent(src).next(nextId()));
        f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.enqueuedBy(src).next(job)));
        f.register(ProcessTrees.parent(down).next(downStep).step(downStep, s -> s.enqueuedBy(job).next(down)));
        long input = enqueueBatch(src, null, "2024-06-01");
        long run = nextId();
        long target = claim(job, run, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
        f.stepStarted(job, step, run, target);

        long invented = nextId();
        expectDeadLettered(f.jobHalted(job, invented, target, "forged"), "run " + invented);
        expectDeadLettered(f.jobFailed(job, invented, target), "run " + invented);
        expectDeadLettered(f.stepHalted(job, step, invented, target), "run " + invented);

        // the running run's input is still claimed, started and unarchived; its target went nowhere
        JsonPath row = given().queryParam("processId", step).get("/queue").then().body("total", equalTo(1))
                .extract().jsonPath();
        assertThat(row.getLong("items[0].sourceBatchId")).isEqualTo(input);
        assertThat(row.getLong("items[0].targetBatchId")).isEqualTo(target);
        assertThat(row.getInt("items[0].batchState")).as("still Accessed, not Processed").isEqualTo(2);
        assertThat(row.getString("items[0].startTs")).isNotNull();
        given().queryParam("processId", step).get("/archive").then().body("total", equalTo(0));
        given().queryParam("processId", downStep).get("/queue").then().body("total", equalTo(0));
        given().get("/batches/" + target).then().body("failedAt", nullValue());
        assertThat(given().get("/batches/" + target).then().extract().jsonPath().getLong("sourceInstanceExecId"))
                .isEqualTo(run);
        assertThat(batchEvents.all(BatchEnqueued.class, e -> e.getSourceBatchId() == target, Duration.ofSeconds(1)))
                .isEmpty();

        f.stepHalted(job, step, run, target);
        f.jobHalted(job, run, target, "2024-06-01");
        BatchEnqueued fanOut = batchEvents.await(BatchEnqueued.class, e -> e.getSourceBatchId() == target, WAIT).event();
        assertThat(fanOut.getConsumerProcessId()).isEqualTo(downStep);
        given().queryParam("processId", step).get("/archive").then().body("total", equalTo(1))
                .body("items[0].batchState", equalTo(1));
    }

    @Test
    void eventsNamingAnotherRunsTargetOrAnotherProcessAreDeadLettered() {
        long a = nextId(), aStep = nextId(), b = nextId(), bStep = nextId(), down = nextId(), downStep = nextId();
        f.register(ProcessTrees.parent(a).next(aStep).step(aStep, s -> s.next(a)));
        f.register(ProcessTrees.parent(b).next(bStep).step(bStep, s -> s.next(b)));
        f.register(ProcessTrees.parent(down).next(downStep).step(downStep, s -> s.enqueuedBy(b).next(down)));
        long runA = nextId(), runB = nextId();
        long targetA = claim(a, runA, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
        long targetB = claim(b, runB, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");

        // a real run of a, claiming b's running target
        expectDeadLettered(f.jobHalted(a, runA, targetB, null), "run " + runA, "batch " + targetB);
        // the same, sent as b's
        expectDeadLettered(f.jobHalted(b, runA, targetB, null), "run " + runA, "process " + b);
        expectDeadLettered(f.stepStarted(b, bStep, runA, targetB), "run " + runA);
        // a's run and target, with b's step
        expectDeadLettered(f.stepStarted(a, bStep, runA, targetA), "run " + runA, "process " + bStep);

        given().queryParam("processId", downStep).get("/queue").then().body("total", equalTo(0));
        given().queryParam("processId", bStep).get("/queue").then().body("total", equalTo(1))
                .body("items[0].startTs", nullValue());
        assertThat(given().queryParam("processId", bStep).get("/queue").then().extract().jsonPath()
                .getLong("items[0].targetBatchId")).isEqualTo(targetB);

        f.stepStarted(b, bStep, runB, targetB);
        f.stepHalted(b, bStep, runB, targetB);
        f.jobHalted(b, runB, targetB, null);
        assertThat(batchEvents.await(BatchEnqueued.class, e -> e.getSourceBatchId() == targetB, WAIT).event()
                .getConsumerProcessId()).isEqualTo(downStep);
        assertThat(batchEvents.all(BatchEnqueued.class, e -> e.getSourceBatchId() == targetA, Duration.ofSeconds(1)))
                .isEmpty();
    }

    @Test
    void aJobHaltedOfAFailedRunWhoseTargetARetryTookOverIsDeadLettered() {
        long src = nextId(), job = nextId(), step = nextId(), down = nextId(), downStep = nextId();
        f.register(ProcessTrees.parent(src).next(nextId()));
        f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.enqueuedBy(src).next(job)));
        f.register(ProcessTrees.parent(down).next(downStep).step(downStep, s -> s.enqueuedBy(job).next(down)));
        enqueueBatch(src, null, null);
        long failedRun = nextId();
        long target = claim(job, failedRun, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
        f.stepStarted(job, step, failedRun, target);
        f.stepFailed(job, step, failedRun, target);
        f.jobFailed(job, failedRun, target);
        await().atMost(WAIT).untilAsserted(() -> given().get("/batches/" + target).then().body("failedAt", notNullValue()));
        long retryRun = nextId();
        JsonPath retry = claim(job, retryRun, 1).statusCode(200).extract().jsonPath();
        assertThat(retry.getBoolean("retry")).isTrue();
        assertThat(retry.getLong("targetBatchId")).isEqualTo(target);

        expectDeadLettered(f.jobHalted(job, failedRun, target, null), "run " + failedRun, "run " + retryRun);
        given().queryParam("processId", downStep).get("/queue").then().body("total", equalTo(0));
        given().queryParam("processId", step).get("/queue").then().body("total", equalTo(1));

        // the failed run's late events still apply where they are true; the retry completes and fans out once
        f.jobFailed(job, failedRun, target);
        f.jobHalted(job, retryRun, target, null);
        batchEvents.await(BatchEnqueued.class, e -> e.getSourceBatchId() == target, WAIT);
        given().get("/batches/" + target).then().body("failedAt", nullValue());
        given().queryParam("processId", downStep).get("/queue").then().body("total", equalTo(1));
    }

    @Test
    void aRedeliveredGenuineStepEventIsNotDeadLettered() {
        long job = nextId(), step = nextId();
        f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.next(job)));
        long run = nextId();
        long target = claim(job, run, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
        StepStarted started = f.stepStarted(job, step, run, target);
        f.send(job, started);
        // a marker: once it is dead-lettered, both deliveries before it were handled
        JobHalted marker = f.jobHalted(job, nextId(), target, null);
        awaitDeadLetter(marker);
        assertThat(DeadLetters.find(bootstrap, DLQ, started).isPresent()).as("a duplicate of a valid event is skipped, not dead-lettered").isFalse();
        given().queryParam("processId", step).get("/queue").then().body("items[0].startTs", notNullValue());
    }

    private void expectDeadLettered(SpecificRecord event, String... reasonMentions) {
        DeadLetters.Letter dead = awaitDeadLetter(event);
        assertThat(Events.eventId(dead.event())).isEqualTo(Events.eventId(event));
        for (String text : reasonMentions) {
            assertThat(dead.reasonHeaders()).as("a dead-letter header names '%s'", text).contains(text);
        }
        assertThat(dead.reasonHeaders()).as("no SQL in the reason").doesNotContain("SELECT").doesNotContain("UPDATE");
    }

    private DeadLetters.Letter awaitDeadLetter(SpecificRecord event) {
        return await().atMost(WAIT).until(() -> DeadLetters.find(bootstrap, DLQ, event), Optional::isPresent)
                .orElseThrow();
    }
}
