package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Bucket-aware triggering through the packaged services' APIs, for the end-to-end tests of it: producers whose
 * batches are registered with markings through queue-service's {@code POST /batches}, stand-alone consumers started by
 * execution-service's runner when their trigger decides, and the trigger's settings, runs, /why and pause/resume.
 */
final class BucketTriggers {

    static final Duration WAIT = Duration.ofSeconds(90);
    /** The consumers' step script: it prints its bucket; the runner's run ends when it exits. */
    static final String STEP_SCRIPT = "bucket-trigger-step.sh";
    /** Any server id: queue-service records where a batch's files are, it does not reach the server. */
    private static final long SERVER = 4501;

    private final Stack stack;
    final long app;

    /** A producer (a parent with a step; its batches are registered by the test) and a consumer's parent and step. */
    record Job(long parent, long step) {
    }

    BucketTriggers(Stack stack, Path scriptDir, String name) {
        this.stack = stack;
        try {
            Path script = scriptDir.resolve(STEP_SCRIPT);
            Files.writeString(script, "#!/bin/sh\necho \"bucket $1\"\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
            // no deployment script of the consumers' type: execution-service deploys them itself once their step
            // scripts are there (as TriggerEndToEndTest's)
            Files.deleteIfExists(scriptDir.resolve("process-type-2.sh"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.app = RegistryFixtures.application(stack, name);
    }

    /** A producer known to both read models, with its bucket grain and zone declared (its markings' meaning). */
    Job producer(String grain, String zone) {
        RegistryFixtures.Job job = RegistryFixtures.job(stack, app, List.of());
        RegistryFixtures.awaitKnown(stack, job.step(), job.parent(), WAIT);
        if (grain != null) {
            put(job.parent(), Map.of("policy", "none", "grain", grain, "zone", zone));
        }
        return new Job(job.parent(), job.step());
    }

    /**
     * A stand-alone consumer of {@code producers}' batches, known to both read models, with a run policy, deployed,
     * and given {@code trigger} as its settings.
     */
    Job consumer(List<Long> producers, Map<String, Object> trigger) {
        long parent = process(null, List.of());
        long step = process(parent, producers);
        ok(registry().body(Map.of("configGroup", "script", "value", STEP_SCRIPT))
                .put("/processes/" + step + "/properties/script"));
        RegistryFixtures.link(stack, parent, step);
        RegistryFixtures.link(stack, step, parent);
        RegistryFixtures.awaitKnown(stack, step, parent, WAIT);
        ok(execution().body(Map.of()).put("/runner/processes/" + parent));
        deploy(parent);
        put(parent, trigger);
        return new Job(parent, step);
    }

    /** {@code PUT /processes/{pid}/trigger}; answers the settings as stored. */
    JsonPath put(long parent, Map<String, Object> settings) {
        return ok(execution().body(settings).put("/processes/" + parent + "/trigger")).jsonPath();
    }

    /** A batch of {@code producer} with {@code marking}, registered and enqueued by queue-service; its id. */
    long batch(Job producer, String marking) {
        Map<String, Object> body = new HashMap<>();
        body.put("enqueuingProcessId", producer.parent());
        body.put("serverId", SERVER);
        body.put("batchMarking", marking);
        body.put("files", List.of(Map.of("path", "/landing/" + UUID.randomUUID(), "fileSize", 1)));
        return ok(queue().body(body).post("/batches"), 201).jsonPath().getLong("batchId");
    }

    JsonPath why(long parent) {
        return ok(execution().get("/why/" + parent)).jsonPath();
    }

    /** The consumer's trigger runs, newest first (all of a test's: at most 100). */
    List<Map<String, Object>> runs(long parent) {
        return ok(execution().queryParam("limit", 100).get("/processes/" + parent + "/trigger/runs")).jsonPath()
                .getList("items");
    }

    /** The trigger runs of one bucket, newest first. */
    List<Map<String, Object>> runs(long parent, String bucket) {
        return runs(parent).stream().filter(r -> bucket.equals(r.get("bucket"))).toList();
    }

    /** Waits for the bucket's run to have started its run; answers it. */
    Map<String, Object> awaitStarted(long parent, String bucket) {
        return await().atMost(WAIT).pollInterval(Duration.ofMillis(250)).until(() -> started(parent, bucket),
                Optional::isPresent).orElseThrow();
    }

    private Optional<Map<String, Object>> started(long parent, String bucket) {
        return runs(parent, bucket).stream().filter(r -> "STARTED".equals(r.get("state"))
                && r.get("instanceExecId") != null).findFirst();
    }

    /** The source batch ids a trigger run lists. */
    @SuppressWarnings("unchecked")
    static List<Long> batchesOf(Map<String, Object> run) {
        return ((List<Map<String, Object>>) run.get("batches")).stream()
                .map(b -> ((Number) b.get("sourceBatchId")).longValue()).sorted().toList();
    }

    /**
     * The source batches of the step's queue rows that the run with target batch {@code targetBatch} claimed, on the
     * queue or, once the run halted, in the archive.
     */
    List<Long> claimedBy(long step, long targetBatch) {
        // a row being archived may show in both lists for a moment: a batch is on a step's queue once
        Map<Object, Map<String, Object>> rows = new HashMap<>();
        for (String list : List.of("/queue", "/archive")) {
            List<Map<String, Object>> items = ok(queue().queryParam("processId", step).queryParam("limit", 500)
                    .get(list)).jsonPath().getList("items");
            items.forEach(r -> rows.put(r.get("sourceBatchId"), r));
        }
        return rows.values().stream().filter(r -> r.get("targetBatchId") != null
                        && ((Number) r.get("targetBatchId")).longValue() == targetBatch)
                .map(r -> ((Number) r.get("sourceBatchId")).longValue()).sorted().toList();
    }

    /** The step's queue rows still new (state 0): batches no run has claimed. */
    List<Long> unclaimed(long step) {
        List<Map<String, Object>> rows = ok(queue().queryParam("processId", step).queryParam("state", 0)
                .queryParam("limit", 500).get("/queue")).jsonPath().getList("items");
        return rows.stream().map(r -> ((Number) r.get("sourceBatchId")).longValue()).sorted().toList();
    }

    /** The job's COMPLETE buckets and the run that completed each (runner ledger). */
    Map<String, Long> completeBuckets(long parent) {
        List<Map<String, Object>> rows = ok(execution().queryParam("status", "COMPLETE").queryParam("limit", 100)
                .get("/runner/processes/" + parent + "/buckets")).jsonPath().getList("items");
        Map<String, Long> byBucket = new HashMap<>();
        rows.forEach(r -> byBucket.put((String) r.get("bucket"), ((Number) r.get("instanceExecId")).longValue()));
        return byBucket;
    }

    /** The job's runs (at most 100), as {@code GET /runs} lists them. */
    List<Map<String, Object>> jobRuns(long parent) {
        return ok(execution().queryParam("processId", parent).queryParam("limit", 100).get("/runs")).jsonPath()
                .getList("items");
    }

    /** A daily trigger of {@code policy} on these jobs' batches, in UTC. */
    static Map<String, Object> daily(String policy, Job... inputs) {
        return Map.of("policy", policy, "inputs", java.util.Arrays.stream(inputs).map(Job::parent).toList(),
                "grain", "day", "zone", "UTC");
    }

    RequestSpecification execution() {
        return given().baseUri(stack.execution.url()).contentType(ContentType.JSON);
    }

    private RequestSpecification queue() {
        return given().baseUri(stack.queue.url()).contentType(ContentType.JSON);
    }

    private RequestSpecification registry() {
        return given().baseUri(stack.registry.url()).contentType(ContentType.JSON);
    }

    private long process(Long parent, List<Long> enqueuers) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", (parent == null ? "bucket-job-" : "bucket-step-") + System.nanoTime() % 1_000_000);
        body.put("description", "bucket trigger e2e");
        body.put("applicationId", app);
        body.put("processTypeId", parent == null ? 2 : 22);
        body.put("parentProcessId", parent);
        body.put("enqueuingProcessIds", enqueuers);
        if (parent == null) {
            body.put("workflowTypeId", 2);
        }
        return ok(registry().body(body).post("/processes"), 201).jsonPath().getLong("id");
    }

    private void deploy(long parent) {
        long id = ok(execution().post("/processes/" + parent + "/deployments"), 201).jsonPath().getLong("deploymentId");
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> "SUCCESS".equals(
                ok(execution().get("/deployments/" + id)).jsonPath().getString("status")));
    }

    static Response ok(Response response) {
        return ok(response, 200);
    }

    static Response ok(Response response, int status) {
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(status);
        return response;
    }
}
