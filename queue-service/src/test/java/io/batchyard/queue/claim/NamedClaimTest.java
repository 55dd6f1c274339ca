package io.batchyard.queue.claim;

import static io.batchyard.queue.QueueFixtures.enqueueBatch;
import static io.batchyard.queue.QueueFixtures.nextId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * A claim that names its source batches (a triggered run consuming what its trigger attributed to it): exactly the
 * parent's New rows of those batches, whatever maxBatch, and nothing else; none of them queued is 112, unless a failed
 * run's rows are pending: those are retried first, as by any claim.
 */
@QueueTest
class NamedClaimTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aClaimOfNamedSourceBatchesTakesExactlyThoseWhateverMaxBatch() {
        long up = nextId(), job = nextId(), step = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(nextId()));
            f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.enqueuedBy(up).next(job)));
            long b1 = enqueueBatch(up, null, "2026032900");
            long b2 = enqueueBatch(up, null, "2026032901");
            long b3 = enqueueBatch(up, null, "2026032902");
            long b4 = enqueueBatch(up, null, "2026033000");

            // three of four, with a max batch of 1: the names win; b4 (the next day) stays queued
            long ie = nextId();
            JsonPath first = claim(job, ie, 1, List.of(b1, b3, b2)).statusCode(200).extract().jsonPath();
            assertThat(first.getList("rows.sourceBatchId", Long.class)).containsExactly(b1, b2, b3);
            given().queryParam("processId", step).get("/queue").then().body("total", equalTo(4));

            // the run ends: what it consumed is archived, b4 is still New
            long target = first.getLong("targetBatchId");
            f.stepStarted(job, step, ie, target);
            f.stepHalted(job, step, ie, target);
            f.jobHalted(job, ie, target, "20260329");
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().queryParam("processId", step)
                    .get("/queue").then().body("total", equalTo(1)).body("items[0].sourceBatchId", equalTo((int) b4)));

            // a name that is not queued for the parent (b1 is consumed, 999999999 never was) is not taken
            List<Long> next = claim(job, nextId(), null, List.of(b4, b1, 999_999_999L)).statusCode(200).extract()
                    .jsonPath().getList("rows.sourceBatchId", Long.class);
            assertThat(next).containsExactly(b4);
        }
    }

    @Test
    void namesOfWhichNoneIsQueuedAre112AndClaimNothing() {
        long up = nextId(), job = nextId(), step = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(nextId()));
            f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.enqueuedBy(up).next(job)));
            long b1 = enqueueBatch(up, null, null);

            claim(job, nextId(), null, List.of(b1 + 1_000_000)).statusCode(409).contentType("application/problem+json")
                    .body("code", equalTo(112));
            // the batch that was queued is still there for an ordinary claim
            assertThat(claim(job, nextId(), 1, null).statusCode(200).extract().jsonPath()
                    .getList("rows.sourceBatchId", Long.class)).containsExactly(b1);
        }
    }

    @Test
    void namesAfterARunThatDiedRetryItsBatchesInsteadOfBeingRefused() {
        long up = nextId(), job = nextId(), step = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(nextId()));
            f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.enqueuedBy(up).next(job)));
            long b1 = enqueueBatch(up, null, "20260301");
            // a run claims b1 by name and dies: its row stays bound to its target, no longer New
            long target = claim(job, nextId(), null, List.of(b1)).statusCode(200).extract().jsonPath()
                    .getLong("targetBatchId");
            // the run that resumes it names b1 again: it retries the dead run's target, it is not refused
            JsonPath again = claim(job, nextId(), null, List.of(b1)).statusCode(200).extract().jsonPath();
            assertThat(again.getBoolean("retry")).isTrue();
            assertThat(again.getLong("targetBatchId")).isEqualTo(target);
            assertThat(again.getList("rows.sourceBatchId", Long.class)).containsExactly(b1);
        }
    }

    private static ValidatableResponse claim(long parent, long instanceExecId, Integer maxBatch, List<Long> sources) {
        Map<String, Object> body = new HashMap<>();
        body.put("parentProcessId", parent);
        body.put("instanceExecId", instanceExecId);
        body.put("maxBatch", maxBatch);
        body.put("sourceBatchIds", sources);
        return given().auth().oauth2(Identity.get().serviceToken("execution")).contentType(ContentType.JSON).body(body)
                .post("/internal/claims").then();
    }
}
