package io.batchyard.execution;

import static io.batchyard.teststack.PrometheusText.value;
import static io.batchyard.teststack.PrometheusText.valueOrZero;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.teststack.Management;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus endpoint as a scraper sees it: open without a token, with the lifecycle's transitions and rejections
 * counted as a run goes through the REST API, the claim timed, and the outbox gauges present; and the outbox relay's
 * readiness check up.
 */
@ExecutionTest
class MetricsTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aRunThroughTheApiShowsUpInTheMetrics() {
        long p = ExecutionFixtures.id(), s = ExecutionFixtures.id();
        ExecutionFixtures.register(bootstrap, ProcessTrees.parent(p).next(s).step(s, step -> step.next(p)));
        String before = scrape();

        // A rejection first: the parent is not running (108).
        post("/steps/" + s + "/init").statusCode(409).body("code", equalTo(108));
        given().contentType(ContentType.JSON).body(Map.of("maxBatch", 1)).post("/jobs/" + p + "/init").then()
                .statusCode(200);
        post("/steps/" + s + "/init").statusCode(200);
        post("/steps/" + s + "/halt").statusCode(200);
        post("/jobs/" + p + "/halt").statusCode(200).body("state", equalTo("SUCCESS"));

        String after = scrape();
        assertThat(value(after, "batchyard_lifecycle_transitions_total", "call", "InitJob", "outcome", "ok"))
                .isGreaterThanOrEqualTo(1);
        for (String call : new String[] {"InitJob", "InitStep", "HaltStep", "HaltJob"}) {
            assertThat(increase(before, after, "batchyard_lifecycle_transitions_total", "call", call, "outcome", "ok"))
                    .as(call).isGreaterThanOrEqualTo(1);
        }
        assertThat(increase(before, after, "batchyard_lifecycle_transitions_total", "call", "InitStep",
                "outcome", "rejected")).isGreaterThanOrEqualTo(1);
        assertThat(increase(before, after, "batchyard_lifecycle_rejections_total", "code", "108"))
                .isGreaterThanOrEqualTo(1);
        // Every call's series exists, at 0 when it never ran.
        assertThat(value(after, "batchyard_lifecycle_transitions_total", "call", "TermJob", "outcome", "rejected"))
                .isGreaterThanOrEqualTo(0);
        assertThat(increase(before, after, "batchyard_claim_latency_seconds_count")).isGreaterThanOrEqualTo(1);
        assertThat(value(after, "batchyard_outbox_backlog")).isGreaterThanOrEqualTo(0);
        assertThat(value(after, "batchyard_outbox_oldest_unpublished_seconds")).isGreaterThanOrEqualTo(0);
        assertThat(value(after, "batchyard_events_consumed_total")).as("the read model's consumer").isPositive();
        assertThat(value(after, "batchyard_runner_buckets", "status", "INIT")).isGreaterThanOrEqualTo(0);

        given().noFilters().baseUri(Management.ofApplicationUnderTest().ready().toString()).get().then()
                .body("checks.find { it.name == 'Outbox relay alive and backlog below threshold' }.status",
                        equalTo("UP"));
    }

    /** The endpoint a scraper calls: no token. */
    private static String scrape() {
        return Management.ofApplicationUnderTest().metricsText();
    }

    private static io.restassured.response.ValidatableResponse post(String path) {
        return given().contentType(ContentType.JSON).post(path).then();
    }

    private static double increase(String before, String after, String name, String... labels) {
        return value(after, name, labels) - valueOrZero(before, name, labels);
    }
}
