package io.batchyard.queue.lifecycle;

import static io.batchyard.queue.QueueFixtures.claim;
import static io.batchyard.queue.QueueFixtures.nextId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.teststack.ProcessTrees;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The fan-out histogram as a scraper sees it: a {@code JobHalted} whose job has a consumer adds one observation once
 * its fan-out committed; its redelivery adds none.
 */
@QueueTest
class FanOutLatencyTest {

    private static final Pattern FAN_OUTS = Pattern.compile(
            "^batchyard_fanout_latency_seconds_count(?:\\{[^}]*})? (\\S+)(?: # .*)?$", Pattern.MULTILINE);
    private static final Pattern DUPLICATES = Pattern.compile(
            "^batchyard_events_duplicates_total\\{consumer=\"queue-lifecycle\",?} (\\S+)(?: # .*)?$", Pattern.MULTILINE);

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
            double before = value(scrape(), FAN_OUTS);

            var halted = f.jobHalted(up, ie, tb, "2024-06-01");
            await().atMost(Duration.ofSeconds(20)).until(() -> value(scrape(), FAN_OUTS) > before);
            assertThat(given().queryParam("processId", downStep).get("/queue").then().extract().jsonPath()
                    .getInt("total")).isEqualTo(1);
            // A redelivery enqueues nothing and is not timed; the ledger's counter says when it was dropped.
            double duplicates = value(scrape(), DUPLICATES);
            f.send(up, halted);
            await().atMost(Duration.ofSeconds(20)).until(() -> value(scrape(), DUPLICATES) > duplicates);

            String metrics = scrape();
            assertThat(value(metrics, FAN_OUTS)).isEqualTo(before + 1);
            assertThat(metrics).contains("batchyard_fanout_latency_seconds_bucket{le=\"1.0\"}")
                    .contains("batchyard_outbox_backlog ").contains("batchyard_outbox_oldest_unpublished_seconds ")
                    .contains("batchyard_merge_jobs{state=\"DEAD\"}");
        }
    }

    /** The endpoint a scraper calls: no token. */
    private static String scrape() {
        return given().noFilters().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    private static double value(String metrics, Pattern sample) {
        Matcher m = sample.matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
