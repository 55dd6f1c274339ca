package io.batchyard.dashboard;

import static io.batchyard.teststack.PrometheusText.value;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.dashboard.metrics.DashboardMeters;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.lineage.LineageParsed;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.events.queue.FileRegistered;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.EventPublisher;
import io.batchyard.teststack.Management;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.TopicContents;
import io.batchyard.teststack.identity.Identity;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * {@code /q/metrics} as a scraper sees it, open without a token: the JVM's, HTTP and Kafka client meters next to the
 * dashboard's own. Events fed through the real topics are counted by topic as the view applies them, an undecodable
 * record and an event of a type the view does not show as dropped, and every record of the topics is counted exactly
 * once; the open event streams are a gauge that follows pages opening and closing them.
 */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "dashboard"))
class MetricsTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long APP = 9901;
    private static final long JOB = 99100;
    private static final long STEP = 99101;
    private static final long RUN = 99110;
    private static final long STEP_RUN = 99111;
    private static final long BATCH = 99120;

    private static final String EVENTS = "batchyard_dashboard_events_total";
    private static final String DROPPED = "batchyard_dashboard_events_dropped_total";
    private static final String CLIENTS = "batchyard_dashboard_stream_clients";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String kafka;

    @Test
    void theEventsTheViewAppliedAndDroppedAreCountedByTopic() {
        String before = caughtUp();
        try (EventPublisher publisher = new EventPublisher(kafka)) {
            publisher.publish(Topics.REGISTRY_PROCESSES, APP, ProcessTrees.application(APP, "ana", null, 7, 0, 0));
            ProcessTrees.parent(JOB).application(APP).step(STEP, s -> s.enqueuedBy(JOB)).publish(publisher);
            publisher.publish(Topics.EXECUTION_LIFECYCLE, JOB, JobStarted.newBuilder()
                    .setHeader(Events.header("test", RUN, null)).setProcessId(JOB).setInstanceExecId(RUN)
                    .setTargetBatchId(BATCH).setTargetBatchMarking("2024-06-01").build());
            publisher.publish(Topics.EXECUTION_LIFECYCLE, JOB, StepStarted.newBuilder()
                    .setHeader(Events.header("test", STEP_RUN, null)).setParentProcessId(JOB).setSubProcessId(STEP)
                    .setSubInstanceExecId(STEP_RUN).setParentInstanceExecId(RUN).build());
            publisher.publish(Topics.EXECUTION_LIFECYCLE, JOB, JobHalted.newBuilder()
                    .setHeader(Events.header("test", RUN, null)).setProcessId(JOB).setInstanceExecId(RUN)
                    .setTargetBatchId(BATCH).setBatchMarking(null).build());
            // Bytes no schema decodes, on the lifecycle topic.
            publisher.publishRaw(Topics.EXECUTION_LIFECYCLE, String.valueOf(JOB), new byte[] {1, 2, 3, 4, 5, 6, 7});
            publisher.publish(Topics.QUEUE_BATCHES, STEP, BatchEnqueued.newBuilder()
                    .setHeader(Events.header("test", null, null)).setQueueId(99500).setSourceBatchId(BATCH)
                    .setSourceProcessId(JOB).setConsumerProcessId(STEP).setBatchMarking(null).build());
            // A contract event, but not one the view shows, on a topic it reads.
            publisher.publish(Topics.QUEUE_BATCHES, BATCH, FileRegistered.newBuilder()
                    .setHeader(Events.header("test", null, null)).setBatchId(BATCH).setServerId(1)
                    .setPath("/data/in/part-0").setFileSize(10).setCreationTs(Instant.now()).build());
            publisher.publish(Topics.LINEAGE_PARSED, JOB, LineageParsed.newBuilder()
                    .setHeader(Events.header("test", null, null)).setQueryId("q-99100").setProcessId(JOB)
                    .setParseStatus("PARSED").setInputTables(List.of("raw.orders"))
                    .setOutputTables(List.of("mart.orders")).setRelationCount(1).build());
        }
        String after = caughtUp();

        assertThat(increase(before, after, EVENTS, "topic", Topics.REGISTRY_PROCESSES)).isEqualTo(2);
        assertThat(increase(before, after, EVENTS, "topic", Topics.EXECUTION_LIFECYCLE)).isEqualTo(3);
        assertThat(increase(before, after, EVENTS, "topic", Topics.QUEUE_BATCHES)).isEqualTo(1);
        assertThat(increase(before, after, EVENTS, "topic", Topics.LINEAGE_PARSED)).isEqualTo(1);
        assertThat(increase(before, after, DROPPED, "topic", Topics.EXECUTION_LIFECYCLE, "reason", "undecodable"))
                .isEqualTo(1);
        assertThat(increase(before, after, DROPPED, "topic", Topics.QUEUE_BATCHES, "reason", "unexpected"))
                .isEqualTo(1);
        assertThat(increase(before, after, DROPPED, "topic", Topics.EXECUTION_LIFECYCLE, "reason", "unexpected"))
                .isZero();
        assertThat(increase(before, after, DROPPED, "topic", Topics.QUEUE_BATCHES, "reason", "undecodable"))
                .isZero();
        // Every topic's series exists, at 0 when nothing was dropped there.
        for (String topic : DashboardMeters.TOPICS) {
            for (String reason : new String[] {"undecodable", "unexpected"}) {
                assertThat(value(after, DROPPED, "topic", topic, "reason", reason)).as(topic + " " + reason)
                        .isGreaterThanOrEqualTo(0);
            }
        }
        // What the counters say the view applied is on the page.
        assertThat(given().get("/api/snapshot").then().statusCode(200).extract().jsonPath()
                .getList("finished.instanceExecId", Long.class)).contains(RUN);

        // Quarkus' own meters are served too: the JVM's, the HTTP server's (by route), the Kafka consumers'.
        String meters = scrape();
        assertThat(value(meters, "jvm_memory_used_bytes")).isPositive();
        assertThat(value(meters, "http_server_requests_seconds_count", "uri", "/api/snapshot")).isPositive();
        assertThat(meters).contains("kafka_consumer_");
    }

    @Test
    void theGaugeFollowsTheStreamsPagesOpenAndClose() throws Exception {
        // Streams other tests opened and closed are no longer counted.
        await().atMost(WAIT).untilAsserted(() -> assertThat(value(scrape(), CLIENTS)).isZero());
        String viewer = Identity.get().token("ana", Set.of("viewer"), Set.of());
        try (EventStream first = EventStream.open(viewer)) {
            await().atMost(WAIT).untilAsserted(() -> assertThat(value(scrape(), CLIENTS)).isEqualTo(1));
            try (EventStream second = EventStream.open(viewer)) {
                await().atMost(WAIT).untilAsserted(() -> assertThat(value(scrape(), CLIENTS)).isEqualTo(2));
            }
            await().atMost(WAIT).untilAsserted(() -> assertThat(value(scrape(), CLIENTS)).isEqualTo(1));
        }
        await().atMost(WAIT).untilAsserted(() -> assertThat(value(scrape(), CLIENTS)).isZero());
        // A refused stream never opened.
        given().noFilters().accept("text/event-stream").get("/api/stream").then().statusCode(401);
        assertThat(value(scrape(), CLIENTS)).isZero();
    }

    /**
     * The metrics once the view has read every record of its topics: each one is counted once, as applied or as
     * dropped, so the counters of a topic add up to the records it holds.
     */
    private String caughtUp() {
        await().atMost(WAIT).untilAsserted(() -> {
            Map<String, Integer> records = new HashMap<>();
            TopicContents.read(kafka, DashboardMeters.TOPICS::contains, Duration.ofSeconds(10), Duration.ofSeconds(30))
                    .forEach(r -> records.merge(r.topic(), 1, Integer::sum));
            String metrics = scrape();
            for (String topic : DashboardMeters.TOPICS) {
                assertThat(value(metrics, EVENTS, "topic", topic) + value(metrics, DROPPED, "topic", topic))
                        .as(topic).isEqualTo(records.getOrDefault(topic, 0).doubleValue());
            }
        });
        return scrape();
    }

    /** The endpoint a scraper calls: no token. */
    private static String scrape() {
        return Management.ofApplicationUnderTest().metricsText();
    }

    private static double increase(String before, String after, String name, String... labels) {
        return value(after, name, labels) - value(before, name, labels);
    }
}
