package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.EventProbe.Received;
import io.batchyard.teststack.PrometheusText;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Data-aware triggering across the real services (issue 17, item 1): A's HaltJob fans its batch out to B's step
 * (queue-service), whose BatchEnqueued starts the on-batch, deployed, stand-alone B on execution-service's runner, and
 * B's HaltJob starts C the same way; after A's launch no REST call is made. A parent that is not deployed is not
 * started and {@code /why} says so.
 */
class TriggerEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /**
     * Parents of this process type, for which the runner's script directory holds no deployment script: as
     * stand-alone parents they are deployed by execution-service itself once their step scripts are there.
     */
    private static final int PARENT_TYPE = 2;
    private static final String STEP_SCRIPT = "trigger-step.sh";
    private static Stack stack;

    @BeforeAll
    static void start() throws IOException {
        executable(Stack.sharedScriptDir().resolve(STEP_SCRIPT), "#!/bin/sh\necho \"bucket $1\"\n");
        // no deployment script of this type (an earlier build's run may have left one): the parents deploy as a
        // user's do on a fresh stack
        Files.deleteIfExists(Stack.sharedScriptDir().resolve("process-type-" + PARENT_TYPE + ".sh"));
        stack = Stack.shared();
    }

    @Test
    void aHaltStartsTheOnBatchDownstreamWhichStartsTheNextWithoutAnyCall() {
        long app = application();
        Job a = job(app, List.of());
        Job b = job(app, List.of(a.parent()));
        Job c = job(app, List.of(b.parent()));
        for (Job job : List.of(a, b, c)) {
            ready(job);
        }
        for (Job job : List.of(b, c)) {
            deploy(job.parent());
            onBatch(job.parent());
        }

        try (EventProbe lifecycle = EventProbe.on(stack.kafka(), Topics.EXECUTION_LIFECYCLE)) {
            launch(a.parent());
            // from here on only Kafka is read: the runs of B and C are started by their data alone
            Received<JobHalted> haltA = lifecycle.await(JobHalted.class, e -> e.getProcessId() == a.parent(), WAIT);
            Received<JobStarted> startB = lifecycle.await(JobStarted.class, e -> e.getProcessId() == b.parent(), WAIT);
            Received<JobHalted> haltB = lifecycle.await(JobHalted.class, e -> e.getProcessId() == b.parent(), WAIT);
            Received<JobStarted> startC = lifecycle.await(JobStarted.class, e -> e.getProcessId() == c.parent(), WAIT);
            lifecycle.await(JobHalted.class, e -> e.getProcessId() == c.parent(), WAIT);

            long events = startB.event().getHeader().getOccurredAt().toEpochMilli()
                    - haltA.event().getHeader().getOccurredAt().toEpochMilli();
            long records = startB.timestamp() - haltA.timestamp();
            long secondHop = startC.event().getHeader().getOccurredAt().toEpochMilli()
                    - haltB.event().getHeader().getOccurredAt().toEpochMilli();
            System.out.printf("[trigger] HaltJob(A) -> JobStarted(B): %d ms by the events' occurredAt, %d ms by the "
                    + "Kafka record times; HaltJob(B) -> JobStarted(C): %d ms%n", events, records, secondHop);
            assertThat(events).isNotNegative();
            // B consumed A's target batch, C consumed B's
            assertThat(startB.event().getTargetBatchId()).isNotNull();
            lifecycle.poll(Duration.ofMillis(500));
            assertThat(lifecycle.received(JobStarted.class, e -> e.getProcessId() == b.parent())).hasSize(1);
            assertThat(lifecycle.received(JobStarted.class, e -> e.getProcessId() == c.parent())).hasSize(1);
        }
    }

    @Test
    void aParentThatIsNotDeployedIsNotStartedAndWhySaysSo() {
        long app = application();
        Job a = job(app, List.of());
        Job b = job(app, List.of(a.parent()));
        ready(a);
        ready(b);
        onBatch(b.parent());
        double notDeployedBefore = triggers("not_deployed");

        try (EventProbe lifecycle = EventProbe.on(stack.kafka(), Topics.EXECUTION_LIFECYCLE)) {
            launch(a.parent());
            lifecycle.await(JobHalted.class, e -> e.getProcessId() == a.parent(), WAIT);
        }
        // the trigger was decided (counted) and started nothing
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> triggers("not_deployed") > notDeployedBefore);
        JsonPath why = ok(execution().get("/why/" + b.parent())).jsonPath();
        assertThat(why.getList("reasons.code", String.class)).contains("NOT_DEPLOYED");
        assertThat(why.getString("reasons.find { it.code == 'NOT_DEPLOYED' }.message"))
                .contains(" has not been deployed. Please deploy it").endsWith("it has no deployment");
        assertThat(ok(execution().queryParam("processId", b.parent()).get("/runs")).jsonPath().getInt("total"))
                .isZero();
        // A's batch waits in B's queue for a run that a deployment (or a launch) would start
        assertThat(ok(stack.queue.url(), "/queue?state=0&processId=" + b.step()).jsonPath().getInt("total")).isEqualTo(1);
    }

    /** A stand-alone parent with one step that runs {@link #STEP_SCRIPT}; the step consumes {@code enqueuers}' batches. */
    private record Job(long parent, long step) {
    }

    private static Job job(long app, List<Long> enqueuers) {
        long parent = process(app, null, List.of());
        long step = process(app, parent, enqueuers);
        ok(registry().body(Map.of("configGroup", "script", "value", STEP_SCRIPT))
                .put("/processes/" + step + "/properties/script"));
        RegistryFixtures.link(stack, parent, step);
        RegistryFixtures.link(stack, step, parent);
        return new Job(parent, step);
    }

    private static long process(long app, Long parent, List<Long> enqueuers) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", (parent == null ? "trigger-job-" : "trigger-step-") + System.nanoTime() % 1_000_000);
        body.put("description", "trigger e2e");
        body.put("applicationId", app);
        body.put("processTypeId", parent == null ? PARENT_TYPE : 22);
        body.put("parentProcessId", parent);
        body.put("enqueuingProcessIds", enqueuers);
        if (parent == null) {
            body.put("workflowTypeId", 2);
        }
        Response created = registry().body(body).post("/processes");
        assertThat(created.statusCode()).as(created.asString()).isEqualTo(201);
        return created.jsonPath().getLong("id");
    }

    /** Both read models know the job (queue-service the step's enqueuers), and the runner has a policy for it. */
    private static void ready(Job job) {
        RegistryFixtures.awaitKnown(stack, job.step(), job.parent(), WAIT);
        ok(execution().body(Map.of()).put("/runner/processes/" + job.parent()));
    }

    /** Requests a deployment and waits for the poller to deploy the stand-alone parent (SUCCESS). */
    private static void deploy(long parent) {
        Response requested = execution().post("/processes/" + parent + "/deployments");
        assertThat(requested.statusCode()).as(requested.asString()).isEqualTo(201);
        long id = requested.jsonPath().getLong("deploymentId");
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> "SUCCESS".equals(ok(execution().get("/deployments/" + id)).jsonPath().getString("status")));
    }

    private static void onBatch(long parent) {
        ok(execution().body(Map.of("policy", "on-batch")).put("/processes/" + parent + "/trigger"));
    }

    /** A's run: one bucket and a launch (the scheduler's tick may have claimed the bucket first; it runs either way). */
    private static void launch(long parent) {
        assertThat(execution().body(Map.of("bucket", "trigger-e2e")).post("/runner/processes/" + parent + "/buckets")
                .statusCode()).isEqualTo(201);
        Response launched = execution().post("/runner/processes/" + parent + "/launch");
        assertThat(launched.statusCode()).as(launched.asString()).isIn(200, 202);
    }

    private static long application() {
        return ok(registry().body(Map.of("name", "trigger-" + System.nanoTime(), "description", "trigger e2e",
                "owner", "e2e")).post("/applications"), 201).jsonPath().getLong("id");
    }

    /** The current value of batchyard_triggers_total for the outcome, from execution-service's meters. */
    private static double triggers(String outcome) {
        return PrometheusText.value(stack.execution.management().metricsText(), "batchyard_triggers_total",
                "outcome", outcome);
    }

    private static Response ok(String baseUri, String path) {
        return ok(given().baseUri(baseUri).get(path));
    }

    private static Response ok(Response response) {
        return ok(response, 200);
    }

    private static Response ok(Response response, int status) {
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(status);
        return response;
    }

    private static RequestSpecification registry() {
        return given().baseUri(stack.registry.url()).contentType(ContentType.JSON);
    }

    private static RequestSpecification execution() {
        return given().baseUri(stack.execution.url()).contentType(ContentType.JSON);
    }

    private static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
