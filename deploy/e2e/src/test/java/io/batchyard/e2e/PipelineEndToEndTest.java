package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The heart of the product, across every service and only through public APIs and Kafka: three chained jobs
 * A -> B -> C. Each job's HaltJob fans its target batch out to the next job's queue.
 */
class PipelineEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static Stack stack;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
    }

    @Test
    void threeChainedJobsHandTheirBatchesDownstream() {
        long app = registry().body(Map.of("name", "e2e-" + System.nanoTime(), "description", "e2e", "owner", "e2e"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        Job a = job(app, null);
        Job b = job(app, a.parent);
        Job c = job(app, b.parent);

        try (EventProbe batches = EventProbe.on(stack.kafka(), Topics.QUEUE_BATCHES);
             EventProbe lifecycle = EventProbe.on(stack.kafka(), Topics.EXECUTION_LIFECYCLE)) {
            JsonPath runA = run(a, "2024-05-01");
            long batchOfA = runA.getLong("targetBatchId");
            var toB = batches.await(BatchEnqueued.class,
                    e -> e.getConsumerProcessId() == b.steps.get(0) && e.getSourceBatchId() == batchOfA, WAIT);
            assertThat(toB.key()).isEqualTo(String.valueOf(b.steps.get(0)));
            assertThat(toB.event().getBatchMarking()).isEqualTo("2024-05-01");

            JsonPath runB = run(b, null);
            assertThat(runB.getString("outputs.'min-batch-id-map." + b.steps.get(0) + "'"))
                    .isEqualTo(String.valueOf(batchOfA));
            long batchOfB = runB.getLong("targetBatchId");
            var toC = batches.await(BatchEnqueued.class,
                    e -> e.getConsumerProcessId() == c.steps.get(0) && e.getSourceBatchId() == batchOfB, WAIT);
            assertThat(toC.event().getSourceProcessId()).isEqualTo(b.parent);
            assertThat(toC.event().getBatchMarking()).isEqualTo("2024-05-01");

            // C's queue, read through queue-service's API, holds B's target batch with the marking it carried.
            await().atMost(WAIT).untilAsserted(() -> {
                JsonPath queue = queue().queryParam("processId", c.steps.get(0)).get("/queue").then().statusCode(200)
                        .extract().jsonPath();
                assertThat(queue.getList("items.sourceBatchId", Long.class)).containsExactly(batchOfB);
                assertThat(queue.getList("items.batchMarking", String.class)).containsExactly("2024-05-01");
                assertThat(queue.getList("items.batchState", Integer.class)).containsExactly(0);
            });
            assertThat(lifecycle.await(JobHalted.class, e -> e.getProcessId() == b.parent, WAIT).event().getTargetBatchId())
                    .isEqualTo(batchOfB);
        }
    }

    /**
     * The worked InitJob example (job 123 over job 85's batches 11, 22 and 33, step 125 cut at EOD) across every
     * service: InitJob's exact outputs, HaltJob's archive and fan-out, then 109.
     */
    @Test
    void theSeedsWorkedExampleGivesItsExactOutputs() {
        long app = registry().body(Map.of("name", "seed-" + System.nanoTime(), "description", "spec 3.14", "owner", "e2e"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        explicit(app, 85, null, List.of(), null);
        explicit(app, 86, 85L, List.of(), null);
        explicit(app, 123, null, List.of(), null);
        explicit(app, 124, 123L, List.of(85L), null);
        explicit(app, 125, 123L, List.of(85L), "EOD");
        explicit(app, 130, null, List.of(), null);
        explicit(app, 131, 130L, List.of(123L), null);
        link(85, 86);
        link(86, 85);
        link(123, 124);
        link(124, 125);
        link(125, 123);
        link(130, 131);
        link(131, 130);
        awaitKnown(125, 123);
        awaitKnown(131, 130);
        for (Object[] batch : new Object[][] {{11, "2014-12-16"}, {22, "2014-12-16"}, {33, "EOD@2014-12-16"}}) {
            queue().body(Map.of("enqueuingProcessId", 85, "batchId", batch[0], "serverId", 123461,
                    "files", List.of(Map.of("path", "/landing/85/" + batch[0] + ".csv", "fileSize", 100)),
                    "batchMarking", batch[1])).post("/batches").then().statusCode(201);
        }

        try (EventProbe batches = EventProbe.on(stack.kafka(), Topics.QUEUE_BATCHES)) {
            JsonPath init = execution().body(Map.of("maxBatch", 1)).post("/jobs/123/init").then().statusCode(200)
                    .extract().jsonPath();
            Map<String, String> out = init.getMap("outputs");
            assertThat(out).containsEntry("min-batch-id-map.124", "11").containsEntry("max-batch-id-map.124", "11")
                    .containsEntry("min-batch-id-map.125", "11").containsEntry("max-batch-id-map.125", "33")
                    .containsEntry("min-batch-marking-map.125", "2014-12-16")
                    .containsEntry("max-batch-marking-map.125", "2014-12-16")
                    .containsEntry("target-batch-marking", "2014-12-16,EOD@2014-12-16")
                    .containsEntry("last-recoverable-sp-id", "")
                    .containsEntry("instance-exec-id", init.getString("instanceExecId"))
                    .containsEntry("target-batch-id", init.getString("targetBatchId"))
                    .containsEntry("file-list-map.FileList.124", "/landing/85/11.csv");
            long tb = init.getLong("targetBatchId");
            for (long step : List.of(124L, 125L)) {
                execution().post("/steps/" + step + "/init").then().statusCode(200);
                execution().post("/steps/" + step + "/halt").then().statusCode(200);
            }
            execution().body(Map.of("batchMarking", out.get("target-batch-marking"))).post("/jobs/123/halt").then()
                    .statusCode(200);
            var toJob130 = batches.await(BatchEnqueued.class, e -> e.getSourceBatchId() == tb, WAIT);
            assertThat(toJob130.event().getConsumerProcessId()).isEqualTo(131);
            assertThat(toJob130.event().getBatchMarking()).isEqualTo("2014-12-16,EOD@2014-12-16");
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(queue().queryParam("processId", 131).get("/queue").then().extract().jsonPath()
                        .getList("items.sourceBatchId", Long.class)).containsExactly(tb);
                assertThat(queue().queryParam("processId", 125).get("/archive").then().extract().jsonPath()
                        .getList("items.sourceBatchId", Long.class)).containsExactly(11L, 22L, 33L);
                assertThat(queue().queryParam("processId", 124).get("/queue").then().extract().jsonPath()
                        .getList("items.sourceBatchId", Long.class)).containsExactly(22L, 33L);
            });
            execution().body(Map.of("maxBatch", 1)).post("/jobs/123/init").then().statusCode(409)
                    .body("code", org.hamcrest.Matchers.equalTo(109))
                    .body("detail", org.hamcrest.Matchers.containsString("sub_pid=125"));
            assertThat(batches.all(BatchEnqueued.class, e -> e.getSourceBatchId() == tb, Duration.ofSeconds(1))).hasSize(1);
        }
    }

    /** A run fails at its second step; the re-run resumes there, reuses its batches, and fans out once. */
    @Test
    void aFailedRunResumesAtTheFailedStepWithTheSameBatches() {
        long app = registry().body(Map.of("name", "retry-" + System.nanoTime(), "description", "e2e", "owner", "e2e"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        Job up = job(app, null);
        Job job = job(app, up.parent);
        Job down = job(app, job.parent);
        long upBatch = run(up, "2024-06-01").getLong("targetBatchId");
        try (EventProbe batches = EventProbe.on(stack.kafka(), Topics.QUEUE_BATCHES)) {
            batches.await(BatchEnqueued.class, e -> e.getSourceBatchId() == upBatch
                    && e.getConsumerProcessId() == job.steps.get(0), WAIT);
            JsonPath first = execution().body(Map.of("maxBatch", 1)).post("/jobs/" + job.parent + "/init").then()
                    .statusCode(200).extract().jsonPath();
            long tb = first.getLong("targetBatchId");
            execution().post("/steps/" + job.steps.get(0) + "/init").then().statusCode(200);
            execution().post("/steps/" + job.steps.get(0) + "/halt").then().statusCode(200);
            execution().post("/steps/" + job.steps.get(1) + "/init").then().statusCode(200);
            execution().post("/steps/" + job.steps.get(1) + "/term").then().statusCode(200);
            execution().post("/jobs/" + job.parent + "/term").then().statusCode(200);

            JsonPath retry = execution().body(Map.of("maxBatch", 1)).post("/jobs/" + job.parent + "/init").then()
                    .statusCode(200).extract().jsonPath();
            assertThat(retry.getBoolean("retry")).isTrue();
            assertThat(retry.getLong("targetBatchId")).isEqualTo(tb);
            assertThat(retry.getLong("lastRecoverableSpId")).isEqualTo(job.steps.get(1));
            assertThat(retry.getString("outputs.'min-batch-id-map." + job.steps.get(0) + "'")).isEqualTo(String.valueOf(upBatch));
            for (long step : job.steps.subList(1, 3)) {
                execution().post("/steps/" + step + "/init").then().statusCode(200);
                execution().post("/steps/" + step + "/halt").then().statusCode(200);
            }
            execution().body(Map.of("batchMarking", "2024-06-01")).post("/jobs/" + job.parent + "/halt").then().statusCode(200);
            batches.await(BatchEnqueued.class, e -> e.getSourceBatchId() == tb && e.getConsumerProcessId() == down.steps.get(0), WAIT);
            assertThat(batches.all(BatchEnqueued.class, e -> e.getSourceBatchId() == tb, Duration.ofSeconds(1))).hasSize(1);
            await().atMost(WAIT).untilAsserted(() -> assertThat(queue().queryParam("processId", job.steps.get(0))
                    .get("/archive").then().extract().jsonPath().getList("items.sourceBatchId", Long.class))
                    .containsExactly(upBatch));
        }
    }

    /** A client naming id 2^63-1 is refused; batch registration and InitJob keep working for everyone after it. */
    @Test
    void theLargestChosenIdsAreRefusedAndBatchCreationAndInitJobKeepWorking() {
        long app = registry().body(Map.of("name", "ids-" + System.nanoTime(), "description", "e2e", "owner", "e2e"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        Job up = job(app, null);
        Job consumer = job(app, up.parent);
        queue().body(Map.of("enqueuingProcessId", up.parent, "batchId", Long.MAX_VALUE, "serverId", 123461,
                        "files", List.of(Map.of("path", "/landing/max-" + System.nanoTime(), "fileSize", 1))))
                .post("/batches").then().statusCode(400).body("code", org.hamcrest.Matchers.equalTo(305));
        queue().body(Map.of("batchId", Long.MAX_VALUE, "serverId", 123461, "path", "/landing/max-" + System.nanoTime(),
                "fileSize", 1)).post("/files").then().statusCode(404);
        registry().body(Map.of("id", Long.MAX_VALUE, "name", "max-" + System.nanoTime(), "description", "e2e",
                "applicationId", app, "processTypeId", 1)).post("/processes").then().statusCode(400)
                .body("code", org.hamcrest.Matchers.equalTo(217));

        long registered = queue().body(Map.of("enqueuingProcessId", up.parent, "serverId", 123461,
                        "files", List.of(Map.of("path", "/landing/ok-" + System.nanoTime(), "fileSize", 1))))
                .post("/batches").then().statusCode(201).extract().jsonPath().getLong("batchId");
        JsonPath run = run(consumer, "2024-07-01");
        assertThat(run.getString("outputs.'min-batch-id-map." + consumer.steps.get(0) + "'"))
                .isEqualTo(String.valueOf(registered));
        assertThat(run.getLong("targetBatchId")).isGreaterThan(registered);
    }

    private void explicit(long app, long id, Long parent, List<Long> enqueuers, String cut) {
        Map<String, Object> body = new HashMap<>();
        body.put("id", id);
        body.put("name", "p" + id);
        body.put("description", "spec 3.14 process " + id);
        body.put("applicationId", app);
        body.put("processTypeId", parent == null ? 1 : 12);
        body.put("parentProcessId", parent);
        body.put("enqueuingProcessIds", enqueuers);
        body.put("batchCutPattern", cut);
        registry().body(body).post("/processes").then().statusCode(201);
    }

    private void awaitKnown(long process, long next) {
        RegistryFixtures.awaitKnown(stack, process, next, WAIT);
    }

    /** A parent with three chained steps; the first step consumes {@code upstream}'s batches (if any). */
    private Job job(long app, Long upstream) {
        long parent = createProcess(app, null, List.of());
        long s1 = createProcess(app, parent, upstream == null ? List.of() : List.of(upstream));
        long s2 = createProcess(app, parent, List.of());
        long s3 = createProcess(app, parent, List.of());
        link(parent, s1);
        link(s1, s2);
        link(s2, s3);
        link(s3, parent);
        // The read models of execution and queue follow the registry through Kafka; wait until both have the
        // last change (s3's link back to the parent).
        awaitKnown(s3, parent);
        return new Job(parent, List.of(s1, s2, s3));
    }

    /** InitJob, three steps, HaltJob. */
    private JsonPath run(Job job, String marking) {
        Response init = execution().body(Map.of("maxBatch", 1)).post("/jobs/" + job.parent + "/init");
        assertThat(init.statusCode()).as(init.asString()).isEqualTo(200);
        JsonPath out = init.jsonPath();
        for (long step : job.steps) {
            execution().post("/steps/" + step + "/init").then().statusCode(200);
            execution().post("/steps/" + step + "/halt").then().statusCode(200);
        }
        String batchMarking = marking != null ? marking : out.getString("outputs.'target-batch-marking'");
        execution().body(Map.of("batchMarking", batchMarking)).post("/jobs/" + job.parent + "/halt").then().statusCode(200);
        return out;
    }

    private long createProcess(long app, Long parent, List<Long> enqueuers) {
        return RegistryFixtures.createProcess(stack, app, parent, enqueuers);
    }

    private void link(long process, long next) {
        RegistryFixtures.link(stack, process, next);
    }

    private static io.restassured.specification.RequestSpecification registry() {
        return given().baseUri(stack.registry.url()).contentType(ContentType.JSON);
    }

    private static io.restassured.specification.RequestSpecification execution() {
        return given().baseUri(stack.execution.url()).contentType(ContentType.JSON);
    }

    private static io.restassured.specification.RequestSpecification queue() {
        return given().baseUri(stack.queue.url()).contentType(ContentType.JSON);
    }

    private record Job(long parent, List<Long> steps) {
    }
}
