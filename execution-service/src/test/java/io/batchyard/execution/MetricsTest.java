package io.batchyard.execution;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.teststack.EventPublisher;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus endpoint as a scraper sees it: open without a token, with the lifecycle's transitions and rejections
 * counted as a run goes through the REST API, the claim timed, and the outbox gauges present; and the outbox relay's
 * readiness check up.
 */
@ExecutionTest
class MetricsTest {

    private static final AtomicLong IDS = new AtomicLong(900_000 + (System.nanoTime() % 1000) * 1000);
    /** One sample line of the text format: name, labels and value. */
    /** A sample line: name, labels, value, then perhaps a timestamp and an exemplar ({@code # {trace_id=…} v t}). */
    private static final Pattern SAMPLE = Pattern.compile("^(\\w+)(?:\\{([^}]*)})? (\\S+)(?: [^#\\s]+)?(?: # .*)?$",
            Pattern.MULTILINE);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aRunThroughTheApiShowsUpInTheMetrics() {
        long p = IDS.incrementAndGet(), s = IDS.incrementAndGet();
        try (EventPublisher publisher = new EventPublisher(bootstrap)) {
            ProcessTrees.parent(p).next(s).step(s, step -> step.next(p)).publish(publisher);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> given().get("/process-definitions/" + s).statusCode() == 200);
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
                .isNotNull();
        assertThat(increase(before, after, "batchyard_claim_latency_seconds_count")).isGreaterThanOrEqualTo(1);
        assertThat(value(after, "batchyard_outbox_backlog")).isNotNull().isGreaterThanOrEqualTo(0);
        assertThat(value(after, "batchyard_outbox_oldest_unpublished_seconds")).isNotNull().isGreaterThanOrEqualTo(0);
        assertThat(value(after, "batchyard_events_consumed_total")).as("the read model's consumer").isPositive();
        assertThat(value(after, "batchyard_runner_buckets", "status", "INIT")).isNotNull();

        given().get("/q/health/ready").then()
                .body("checks.find { it.name == 'Outbox relay alive and backlog below threshold' }.status",
                        equalTo("UP"));
    }

    /** The endpoint a scraper calls: no token. */
    private static String scrape() {
        return given().noFilters().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    private static io.restassured.response.ValidatableResponse post(String path) {
        return given().contentType(ContentType.JSON).post(path).then();
    }

    private static double increase(String before, String after, String name, String... labels) {
        Double was = value(before, name, labels);
        return value(after, name, labels) - (was == null ? 0 : was);
    }

    /** The sum of {@code name}'s samples whose labels include {@code labels} (name, value, ...); null when none. */
    private static Double value(String metrics, String name, String... labels) {
        Double sum = null;
        Matcher m = SAMPLE.matcher(metrics);
        while (m.find()) {
            if (!m.group(1).equals(name)) {
                continue;
            }
            String found = m.group(2) == null ? "" : m.group(2);
            boolean matches = true;
            for (int i = 0; i < labels.length; i += 2) {
                matches &= found.contains(labels[i] + "=\"" + labels[i + 1] + "\"");
            }
            if (matches) {
                sum = (sum == null ? 0 : sum) + Double.parseDouble(m.group(3));
            }
        }
        return sum;
    }
}
