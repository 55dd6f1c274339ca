package io.batchyard.queue.lifecycle;

import static io.batchyard.queue.QueueFixtures.claim;
import static io.batchyard.queue.QueueFixtures.nextId;
import static io.batchyard.teststack.PrometheusText.value;
import static io.batchyard.teststack.PrometheusText.valueOrZero;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.teststack.Management;
import io.batchyard.teststack.ProcessTrees;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The fan-out histogram as a scraper sees it: a {@code JobHalted} whose job has a consumer adds one observation once
 * its fan-out committed; its redelivery adds none.
 */
@QueueTest
class FanOutLatencyTest {

    private static final String FAN_OUTS = "batchyard_fanout_latency_seconds_count";
    private static final String DUPLICATES = "batchyard_events_duplicates_total";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aJobHaltedWithAConsumerIsTimedOnceItsFanOutCommitted() {
        long up = nextId(), upStep = nextId(), down = nextId(), downStep = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(upStep).step(upStep, s -> s.next(up)));
            f.register(ProcessTrees.parent(down).next(downStep).step(downStep, s -> s.enqueuedBy(up).next(down)));
            long ie = nextId();
            long tb = claim(up, ie, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
            f.stepStarted(up, upStep, ie, tb);
            f.stepHalted(up, upStep, ie, tb);
            double before = valueOrZero(scrape(), FAN_OUTS);

            var halted = f.jobHalted(up, ie, tb, "2024-06-01");
            await().atMost(Duration.ofSeconds(20)).until(() -> valueOrZero(scrape(), FAN_OUTS) > before);
            assertThat(given().queryParam("processId", downStep).get("/queue").then().extract().jsonPath()
                    .getInt("total")).isEqualTo(1);
            // A redelivery enqueues nothing and is not timed; the ledger's counter says when it was dropped.
            double duplicates = duplicates(scrape());
            f.send(up, halted);
            await().atMost(Duration.ofSeconds(20)).until(() -> duplicates(scrape()) > duplicates);

            String metrics = scrape();
            assertThat(valueOrZero(metrics, FAN_OUTS)).isEqualTo(before + 1);
            // the histogram's buckets and the gauges a dashboard reads are exported (value() fails on a missing one)
            assertThat(value(metrics, "batchyard_fanout_latency_seconds_bucket", "le", "1.0")).isLessThanOrEqualTo(
                    value(metrics, "batchyard_fanout_latency_seconds_bucket", "le", "+Inf"));
            assertThat(value(metrics, "batchyard_outbox_backlog")).isGreaterThanOrEqualTo(0);
            assertThat(value(metrics, "batchyard_outbox_oldest_unpublished_seconds")).isGreaterThanOrEqualTo(0);
            assertThat(value(metrics, "batchyard_merge_jobs", "state", "DEAD")).isGreaterThanOrEqualTo(0);
        }
    }

    /** The endpoint a scraper calls: no token. */
    private static String scrape() {
        return Management.ofApplicationUnderTest().metricsText();
    }

    /** Records the lifecycle consumer's ledger dropped as already applied. */
    private static double duplicates(String metrics) {
        return valueOrZero(metrics, DUPLICATES, "consumer", "queue-lifecycle");
    }
}
