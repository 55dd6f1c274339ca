package io.batchyard.queue.claim;

import static io.batchyard.queue.QueueFixtures.claim;
import static io.batchyard.queue.QueueFixtures.enqueueBatch;
import static io.batchyard.queue.QueueFixtures.nextId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.queue.TestDatabase;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.path.json.JsonPath;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

@QueueTest
class FanOutTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    MeterRegistry meters;

    @Test
    void aForkFeedsEveryDownstreamStepOnceEvenWhenJobHaltedIsDeliveredTwice() {
        long up = nextId(), upStep = nextId(), d1 = nextId(), d1s = nextId(), d2 = nextId(), d2s = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap);
             EventProbe batchEvents = EventProbe.on(bootstrap, Topics.QUEUE_BATCHES)) {
            f.register(ProcessTrees.parent(up).next(upStep).step(upStep, s -> s.next(up)));
            f.register(ProcessTrees.parent(d1).next(d1s).step(d1s, s -> s.enqueuedBy(up).next(d1)));
            f.register(ProcessTrees.parent(d2).next(d2s).step(d2s, s -> s.enqueuedBy(up).next(d2)));
            long ie = nextId();
            long tb = claim(up, ie, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
            f.stepStarted(up, upStep, ie, tb);
            f.stepHalted(up, upStep, ie, tb);
            double duplicatesBefore = duplicates();
            JobHalted halted = f.jobHalted(up, ie, tb, "2024-02-01");
            f.send(up, halted); // redelivery: the same event id

            await().atMost(Duration.ofSeconds(30)).until(() -> duplicates() > duplicatesBefore);
            List<BatchEnqueued> fanOut = batchEvents.all(BatchEnqueued.class, e -> e.getSourceBatchId() == tb,
                    Duration.ofSeconds(2));
            assertThat(fanOut).extracting(BatchEnqueued::getConsumerProcessId).containsExactlyInAnyOrder(d1s, d2s);
            for (long consumer : List.of(d1s, d2s)) {
                given().queryParam("processId", consumer).get("/queue").then().body("total", equalTo(1))
                        .body("items[0].sourceBatchId", equalTo((int) tb)).body("items[0].sourceProcessId", equalTo((int) up));
            }
            // the upstream's placeholder row was consumed and archived
            given().queryParam("processId", upStep).get("/queue").then().body("total", equalTo(0));
            given().queryParam("processId", upStep).get("/archive").then().body("items[0].sourceBatchId", equalTo(0));
        }
    }

    /**
     * A job re-runs right after HaltJob, before its JobHalted reached the queue (found by the lifecycle benchmark):
     * the new run must be fresh, not a "retry" of the completed one, and the completed run still fans out once.
     */
    @Test
    void aRerunBeforeTheLastJobHaltedArrivesIsAFreshRun() {
        long up = nextId(), upStep = nextId(), down = nextId(), downStep = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap);
             EventProbe batchEvents = EventProbe.on(bootstrap, Topics.QUEUE_BATCHES)) {
            f.register(ProcessTrees.parent(up).next(upStep).step(upStep, s -> s.next(up)));
            f.register(ProcessTrees.parent(down).next(downStep).step(downStep, s -> s.enqueuedBy(up).next(down)));
            long ie1 = nextId();
            long tb1 = claim(up, ie1, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
            f.stepStarted(up, upStep, ie1, tb1);
            f.stepHalted(up, upStep, ie1, tb1);
            // another job naming up's target as "its" completed run archives nothing of up's
            long other = nextId(), otherStep = nextId();
            f.register(ProcessTrees.parent(other).next(otherStep).step(otherStep, s -> s.next(other)));
            claim(other, nextId(), 1, tb1).statusCode(200);
            given().queryParam("processId", upStep).get("/queue").then().body("items.targetBatchId",
                    equalTo(List.of((int) tb1)));
            // run 1 halted in execution-service; its JobHalted is still in flight when run 2 starts
            long ie2 = nextId();
            JsonPath second = claim(up, ie2, 1, tb1).statusCode(200).extract().jsonPath();
            assertThat(second.getBoolean("retry")).isFalse();
            long tb2 = second.getLong("targetBatchId");
            assertThat(tb2).isNotEqualTo(tb1);
            // run 1's late step events touch only run 1's rows
            f.stepHalted(up, upStep, ie1, tb1);
            f.jobHalted(up, ie1, tb1, "2024-04-01");
            batchEvents.await(BatchEnqueued.class, e -> e.getSourceBatchId() == tb1, Duration.ofSeconds(30));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().queryParam("processId", upStep)
                    .get("/queue").then().body("items.targetBatchId", equalTo(List.of((int) tb2)))
                    .body("items[0].batchState", equalTo(0)));
            f.stepStarted(up, upStep, ie2, tb2);
            f.stepHalted(up, upStep, ie2, tb2);
            f.jobHalted(up, ie2, tb2, "2024-04-02");
            batchEvents.await(BatchEnqueued.class, e -> e.getSourceBatchId() == tb2, Duration.ofSeconds(30));
            given().queryParam("processId", downStep).get("/queue").then()
                    .body("items.sourceBatchId", equalTo(List.of((int) tb1, (int) tb2)));
        }
    }

    @Test
    void aStepWithTwoEnqueuersWaitsForBothAndTakesTheOldestOfEach() {
        long a = nextId(), b = nextId(), job = nextId(), step = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(a).next(nextId()));
            f.register(ProcessTrees.parent(b).next(nextId()));
            f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.enqueuedBy(a, b).next(job)));
            long a1 = enqueueBatch(a, null, "2024-01-01");
            enqueueBatch(a, null, "2024-01-02");
            claim(job, nextId(), 1).statusCode(409).body("code", equalTo(109));
            long b1 = enqueueBatch(b, null, "2024-01-01");
            enqueueBatch(b, null, "2024-01-02");
            JsonPath out = claim(job, nextId(), 1).statusCode(200).extract().jsonPath();
            assertThat(out.getList("rows.sourceBatchId", Long.class)).containsExactly(a1, b1);
        }
    }

    @Test
    void aRetryReusesTheTargetBatchAndOnlyReaccessesWhatIsNotProcessed() {
        long up = nextId(), job = nextId(), s1 = nextId(), s2 = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(nextId()));
            f.register(ProcessTrees.parent(job).next(s1).step(s1, s -> s.enqueuedBy(up).next(s2))
                    .step(s2, s -> s.enqueuedBy(up).next(job)));
            long batch = enqueueBatch(up, null, "2024-03-01");
            long ie = nextId();
            long tb = claim(job, ie, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
            f.stepStarted(job, s1, ie, tb);
            f.stepHalted(job, s1, ie, tb);
            f.stepStarted(job, s2, ie, tb);
            f.stepFailed(job, s2, ie, tb);
            f.send(job, JobFailed.newBuilder().setHeader(Events.header("test", ie, null)).setProcessId(job)
                    .setInstanceExecId(ie).setTargetBatchId(tb).build());
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    given().get("/batches/" + tb).then().body("failedAt", org.hamcrest.Matchers.notNullValue()));

            long retryIe = nextId();
            JsonPath retry = claim(job, retryIe, 1).statusCode(200).extract().jsonPath();
            assertThat(retry.getBoolean("retry")).isTrue();
            assertThat(retry.getLong("targetBatchId")).isEqualTo(tb);
            assertThat(retry.getList("rows.sourceBatchId", Long.class)).containsExactly(batch, batch);
            given().get("/batches/" + tb).then().body("sourceInstanceExecId", equalTo((int) retryIe))
                    .body("failedAt", equalTo(null));
            // both rows ended Processed (s1 halted, s2 termed): none is re-accessed, none lost
            given().queryParam("processId", s1).get("/queue").then().body("items[0].batchState", equalTo(1));
            given().queryParam("processId", s2).get("/queue").then().body("items[0].batchState", equalTo(1));
        }
    }

    @Test
    void concurrentClaimsOfOneParentNeverShareARow() throws Exception {
        long up = nextId(), job = nextId(), step = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(nextId()));
            f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.enqueuedBy(up).next(job)));
            enqueueBatch(up, null, null);
            enqueueBatch(up, null, null);
            var first = CompletableFuture.supplyAsync(() -> claim(job, nextId(), 1).extract().response());
            var second = CompletableFuture.supplyAsync(() -> claim(job, nextId(), 1).extract().response());
            long t1 = first.get().jsonPath().getLong("targetBatchId");
            long t2 = second.get().jsonPath().getLong("targetBatchId");
            // serialised on the parent: the second sees the first's claim and takes the retry path with the same target
            assertThat(t1).isEqualTo(t2);
            long claimed = TestDatabase.number(
                    "SELECT count(*) FROM consumption_queue WHERE process_id = ? AND target_batch_id IS NOT NULL", step);
            assertThat(claimed).isEqualTo(1);
        }
    }

    @Test
    void aPoisonRecordDoesNotBlockTheLifecycleTopic() {
        long up = nextId(), job = nextId(), step = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(nextId()));
            f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.enqueuedBy(up).next(job)));
            enqueueBatch(up, null, null);
            long ie = nextId();
            long tb = claim(job, ie, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
            f.publisher.publishRaw(Topics.EXECUTION_LIFECYCLE, String.valueOf(job), "not avro".getBytes(StandardCharsets.UTF_8));
            f.send(job, StepStarted.newBuilder().setHeader(Events.header("test", ie, null)).setParentProcessId(job)
                    .setSubProcessId(step).setSubInstanceExecId(nextId()).setParentInstanceExecId(ie).setTargetBatchId(tb)
                    .build());
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().queryParam("processId", step)
                    .get("/queue").then().body("items[0].startTs", org.hamcrest.Matchers.notNullValue()));
        }
    }

    /** Duplicate deliveries the ledger dropped, over every consumer, as its counter says. */
    private double duplicates() {
        return meters.find(ProcessedEventLedger.DUPLICATES).counters().stream().mapToDouble(Counter::count).sum();
    }
}
