package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Process trees created through the registry's API, shared by the end-to-end tests. */
final class RegistryFixtures {

    private RegistryFixtures() {
    }

    /** A parent (no {@code parent}) or a step; the step consumes the batches of {@code enqueuers}. */
    static long createProcess(Stack stack, long app, Long parent, List<Long> enqueuers) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", (parent == null ? "job-" : "step-") + System.nanoTime() % 1_000_000);
        body.put("description", "e2e");
        body.put("applicationId", app);
        body.put("processTypeId", parent == null ? 1 : 12);
        body.put("parentProcessId", parent);
        body.put("enqueuingProcessIds", enqueuers);
        return given().baseUri(stack.registry.url()).contentType(ContentType.JSON).body(body).post("/processes")
                .then().statusCode(201).extract().jsonPath().getLong("id");
    }

    /** A parent with one step, linked both ways. */
    record Job(long parent, long step) {
    }

    /** A parent with one step; the step consumes the batches of {@code enqueuers}. */
    static Job job(Stack stack, long app, List<Long> enqueuers) {
        long parent = createProcess(stack, app, null, List.of());
        long step = createProcess(stack, app, parent, enqueuers);
        link(stack, parent, step);
        link(stack, step, parent);
        return new Job(parent, step);
    }

    /** An application of its own ({@code name} plus a unique suffix), so a test on the shared stack sees only its runs. */
    static long application(Stack stack, String name) {
        return given().baseUri(stack.registry.url()).contentType(ContentType.JSON)
                .body(Map.of("name", name + "-" + System.nanoTime(), "description", "e2e", "owner", "e2e"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
    }

    /**
     * An application of its own created with {@code token}: the token's identity owns it, so that identity's operator
     * role may run the application's jobs (what a job outside the JVM, holding only its own token, needs).
     */
    static long applicationOwnedBy(Stack stack, String token, String name) {
        return given().baseUri(stack.registry.url()).contentType(ContentType.JSON)
                .header("Authorization", "Bearer " + token)
                .body(Map.of("name", name + "-" + System.nanoTime(), "description", "e2e", "owner", "e2e"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
    }

    /** A parent with one step in an application of its own, known to execution-service and queue-service. */
    static Job knownJob(Stack stack, String name, Duration wait) {
        Job job = job(stack, application(stack, name), List.of());
        awaitKnown(stack, job.step(), job.parent(), wait);
        return job;
    }

    /** A job and a job downstream of it. */
    record Chain(Job upstream, Job downstream) {
    }

    /**
     * A job and a job whose step consumes its batches, both known to execution-service and queue-service, so that a
     * lifecycle of {@code upstream} fans out to {@code downstream} at once.
     */
    static Chain chain(Stack stack, long app, Duration wait) {
        Job upstream = job(stack, app, List.of());
        Job downstream = job(stack, app, List.of(upstream.parent()));
        awaitKnown(stack, upstream.step(), upstream.parent(), wait);
        awaitKnown(stack, downstream.step(), downstream.parent(), wait);
        return new Chain(upstream, downstream);
    }

    static void link(Stack stack, long process, long next) {
        given().baseUri(stack.registry.url()).contentType(ContentType.JSON)
                .body(Map.of("nextProcessIds", List.of(next))).patch("/processes/" + process).then().statusCode(200);
    }

    /** The read models of execution and queue follow the registry through Kafka: wait until both know the link. */
    static void awaitKnown(Stack stack, long process, long next, Duration wait) {
        for (String service : List.of(stack.execution.url(), stack.queue.url())) {
            await().atMost(wait).pollInterval(Duration.ofMillis(200)).until(() -> {
                Response r = given().baseUri(service).get("/process-definitions/" + process);
                return r.statusCode() == 200 && r.jsonPath().getList("nextProcessIds", Long.class).contains(next);
            });
        }
    }
}
