package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Automatic retries of a failing bucket: bounded by the policy's attempts and spaced by its back-off. */
@ExecutionTest
class RunnerRetryTest extends RunnerTestSupport {

    @Test
    void aFailingBucketIsRetriedAfterAGrowingBackOffUntilItRunsOutOfAttempts() {
        long p = RunnerFixtures.id(), s1 = RunnerFixtures.id();
        String failing = f.script("failing.sh", "echo \"$(date +%s%N)\" >> " + f.file("runs") + "; echo 'disk full' >&2; exit 2");
        f.register(ProcessTrees.parent(p).workflowType(2).next(s1)
                .step(s1, s -> s.property("script", "run", failing).next(p)));
        f.policy(p, Map.of("retryFailed", true, "retry", Map.of("maxAttempts", 3, "backoffSeconds", 1,
                "maxBackoffSeconds", 2)));
        given().get("/runner/processes/" + p).then().statusCode(200).body("retry.maxAttempts", equalTo(3))
                .body("retry.backoffSeconds", equalTo(1)).body("retry.maxBackoffSeconds", equalTo(2));
        f.bucket(p, "b1");

        for (int attempt = 1; attempt <= 3; attempt++) {
            // a cycle right after a failure claims nothing: the back-off has not passed
            if (attempt > 1) {
                assertThat(launcher.runOnce(p, NOW).claimed()).as("cycle during the back-off").isEmpty();
                given().queryParam("bucket", "b1").get("/why/" + p).then().statusCode(200)
                        .body("reasons.code", hasItem("RETRY_BACKOFF"));
            }
            WorkflowExecution.Outcome outcome = await().atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> launcher.runOnce(p, NOW).outcome().orElse(null), o -> o != null);
            assertThat(outcome.bucketState()).isEqualTo(State.FAILED);
            JsonPath row = bucketRow(p);
            assertThat(row.getInt("attempts")).isEqualTo(attempt);
            assertThat(row.getString("message")).contains("exit code 2");
            // the wait is the back-off of the attempt that failed (1 s, then 2 s, then capped at 2 s) less a random
            // part of at most half of it
            Duration wait = Duration.between(OffsetDateTime.parse(row.getString("updatedAt")),
                    OffsetDateTime.parse(row.getString("nextAttemptAt")));
            long backOff = Math.min(2000, 1000L << (attempt - 1));
            assertThat(wait).as("wait after attempt " + attempt)
                    .isBetween(Duration.ofMillis(backOff / 2), Duration.ofMillis(backOff));
        }

        // out of attempts: FAILED for good with the last reason, and no cycle runs it again, however long one waits
        OffsetDateTime last = OffsetDateTime.parse(bucketRow(p).getString("nextAttemptAt"));
        await().atMost(Duration.ofSeconds(10)).until(() -> OffsetDateTime.now().isAfter(last));
        assertThat(launcher.runOnce(p, NOW).claimed()).isEmpty();
        assertThat(f.lines("runs")).hasSize(3);
        assertThat(f.status(p, "b1")).isEqualTo("FAILED");
        given().queryParam("bucket", "b1").get("/why/" + p).then().statusCode(200)
                .body("reasons.code", hasItem("OUT_OF_ATTEMPTS"));

        // an operator's retry gives it one more run
        given().post("/runner/processes/" + p + "/buckets/b1/retry").then().statusCode(200).body("status",
                equalTo("INIT"));
        assertThat(launcher.runOnce(p, NOW).outcome().orElseThrow().bucketState()).isEqualTo(State.FAILED);
        assertThat(f.lines("runs")).hasSize(4);
    }

    @Test
    void aRetryPolicyWhoseCapIsBelowItsBackOffIsRefused() {
        long p = RunnerFixtures.id(), s1 = RunnerFixtures.id();
        f.register(ProcessTrees.parent(p).workflowType(2).next(s1).step(s1, s -> s.next(p)));
        given().contentType(ContentType.JSON).body(Map.of("retryFailed", true, "retry",
                        Map.of("backoffSeconds", 60, "maxBackoffSeconds", 10)))
                .put("/runner/processes/" + p).then().statusCode(400).body("code", equalTo(404));
        given().contentType(ContentType.JSON).body(Map.of("retry", Map.of("maxAttempts", 0)))
                .put("/runner/processes/" + p).then().statusCode(400);
        // absent fields take the defaults
        f.policy(p, Map.of("retryFailed", true));
        given().get("/runner/processes/" + p).then().statusCode(200).body("retry.maxAttempts", equalTo(3))
                .body("retry.backoffSeconds", equalTo(30)).body("retry.maxBackoffSeconds", equalTo(3600));
    }

    private static JsonPath bucketRow(long p) {
        return given().queryParam("limit", 500).get("/runner/processes/" + p + "/buckets").then().statusCode(200)
                .extract().jsonPath().setRootPath("items.find { it.bucket == 'b1' }");
    }
}
