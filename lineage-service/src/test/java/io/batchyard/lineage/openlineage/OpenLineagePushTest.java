package io.batchyard.lineage.openlineage;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.lineage.LineageParsed;
import io.batchyard.events.lineage.OpenLineageRunEvent;
import io.batchyard.events.lineage.QueryRegistered;
import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.lineage.openlineage.push.OpenLineageDeliveryService;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.DeadLetters;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.EventPublisher;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Pushing RunEvents as runs happen, over HTTP to a receiver in the test that is down at first and then answers 503 a
 * few times: the events wait on {@code batchyard.lineage.openlineage} while delivery fails, and once the receiver
 * takes them every one arrives, in order per run, with the run ids, times and facets that the export answers too. An
 * event the receiver refuses is dead-lettered, and the run's events behind it still arrive.
 */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "lineage"))
class OpenLineagePushTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String kafka;

    @Inject
    MeterRegistry meters;

    @Test
    void eventsWaitForADownBackendAndArriveInOrderPerRun() throws Exception {
        long parent = 800;
        long step = 811;
        JobStarted start = JobStarted.newBuilder().setHeader(Events.header("test", 801L, null)).setProcessId(parent)
                .setInstanceExecId(801).setTargetBatchId(8001).setTargetBatchMarking("2024-06-01").build();
        StepStarted stepStart = StepStarted.newBuilder().setHeader(Events.header("test", 801L, null))
                .setParentProcessId(parent).setSubProcessId(step).setSubInstanceExecId(802).setParentInstanceExecId(801)
                .build();
        QueryRegistered query = QueryRegistered.newBuilder().setHeader(Events.header("test", 802L, null))
                .setQueryType("HIVE").setProcessId(step).setInstanceExecId(802L)
                .setQueryText("INSERT OVERWRITE TABLE olp.revenue SELECT c.region, sum(o.amount) AS total "
                        + "FROM olp.orders o JOIN olp.customers c ON o.cid = c.cid GROUP BY c.region").build();
        StepHalted stepEnd = StepHalted.newBuilder().setHeader(Events.header("test", 801L, null))
                .setParentProcessId(parent).setSubProcessId(step).setSubInstanceExecId(802).setParentInstanceExecId(801)
                .build();
        JobHalted end = JobHalted.newBuilder().setHeader(Events.header("test", 801L, null)).setProcessId(parent)
                .setInstanceExecId(801).setTargetBatchId(8001).setBatchMarking("2024-06-01").build();
        JobStarted other = JobStarted.newBuilder().setHeader(Events.header("test", 803L, null)).setProcessId(820)
                .setInstanceExecId(803).setTargetBatchId(8003).setTargetBatchMarking("x").build();
        JobFailed failed = JobFailed.newBuilder().setHeader(Events.header("test", 803L, null)).setProcessId(820)
                .setInstanceExecId(803).setErrorText("boom").build();
        double failuresBefore = count(OpenLineageDeliveryService.FAILED);
        try (EventPublisher publisher = new EventPublisher(kafka);
             EventProbe parsed = EventProbe.on(kafka, Topics.LINEAGE_PARSED)) {
            publisher.publish(Topics.EXECUTION_LIFECYCLE, parent, start);
            publisher.publish(Topics.EXECUTION_LIFECYCLE, parent, stepStart);
            publisher.publish(Topics.EXECUTION_LIFECYCLE, 820, other);
            publisher.publish(Topics.EXECUTION_LIFECYCLE, 820, failed);
            publisher.publish(Topics.LINEAGE_QUERIES, step, query);
            parsed.await(LineageParsed.class,
                    e -> query.getHeader().getEventId().equals(Events.headerOf(e).getCorrelationId()), WAIT);
            publisher.publish(Topics.EXECUTION_LIFECYCLE, parent, stepEnd);
            publisher.publish(Topics.EXECUTION_LIFECYCLE, parent, end);
        }
        await().atMost(WAIT).untilAsserted(() -> given().get("/openlineage/runs/801").then().statusCode(200)
                .body("eventType", org.hamcrest.Matchers.equalTo("COMPLETE")));
        // Nothing listens yet: deliveries fail and are retried, lifecycle consumption goes on regardless.
        await().atMost(WAIT).until(() -> count(OpenLineageDeliveryService.FAILED) > failuresBefore);

        JsonPath parentRun = given().get("/openlineage/runs/801").then().statusCode(200).extract().jsonPath();
        JsonPath stepRun = given().get("/openlineage/runs/802").then().statusCode(200).extract().jsonPath();
        JsonPath failedRun = given().get("/openlineage/runs/803").then().statusCode(200).extract().jsonPath();
        String parentId = parentRun.getString("run.runId");
        String stepId = stepRun.getString("run.runId");
        String failedId = failedRun.getString("run.runId");
        // The export: a step is its own job, inside its parent, with only its own datasets and its recorded end.
        assertThat(stepRun.getString("eventType")).isEqualTo("COMPLETE");
        assertThat(stepRun.getString("job.name")).isEqualTo("process-811");
        assertThat(stepRun.getString("run.facets.parent.run.runId")).isEqualTo(parentId);
        assertThat(stepRun.getString("run.facets.parent.job.name")).isEqualTo("process-800");
        assertThat(stepRun.getString("run.facets.nominalTime.nominalStartTime")).isEqualTo("2024-06-01T00:00:00Z");
        assertThat(OffsetDateTime.parse(stepRun.getString("eventTime")).toInstant())
                .isEqualTo(stepEnd.getHeader().getOccurredAt());
        assertThat(stepRun.getList("inputs.namespace", String.class)).containsOnly("hive://hive-b.test:10001");
        assertThat(stepRun.getString("job.facets.sql.query")).contains("INSERT OVERWRITE TABLE olp.revenue");
        assertThat(stepRun.getString("outputs[0].facets.lifecycleStateChange.lifecycleStateChange"))
                .isEqualTo("OVERWRITE");
        assertThat(stepRun.getString("outputs[0].facets.columnLineage.fields.total.inputFields[0].transformations[0].subtype"))
                .isEqualTo("AGGREGATION");
        assertThat(parentRun.getMap("run.facets")).doesNotContainKey("parent");
        assertThat(failedRun.getString("eventType")).isEqualTo("FAIL");
        assertThat(failedRun.getList("inputs")).isEmpty();
        given().get("/openlineage/runs/809999").then().statusCode(404)
                .contentType(org.hamcrest.Matchers.containsString("problem+json"))
                .body("code", org.hamcrest.Matchers.equalTo(504));

        List<Map<String, Object>> received = new CopyOnWriteArrayList<>();
        List<String> authorizations = new CopyOnWriteArrayList<>();
        // Up, but unavailable for its first answers: those deliveries are retried too.
        AtomicInteger unavailable = new AtomicInteger(3);
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 18733), 0);
        receiver.createContext("/api/v1/lineage", exchange -> {
            if (unavailable.getAndDecrement() > 0) {
                exchange.getRequestBody().readAllBytes();
                exchange.sendResponseHeaders(503, -1);
                exchange.close();
                return;
            }
            received.add(JSON.readValue(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8),
                    new TypeReference<>() { }));
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            exchange.sendResponseHeaders(201, -1);
            exchange.close();
        });
        receiver.start();
        try {
            await().atMost(WAIT).untilAsserted(() -> {
                // The parent's progress: RUNNING as its step started and as it ended.
                assertThat(types(received, parentId)).containsExactly("START", "RUNNING", "RUNNING", "COMPLETE");
                assertThat(types(received, stepId)).containsExactly("START", "COMPLETE");
                assertThat(types(received, failedId)).containsExactly("START", "FAIL");
            });
        } finally {
            receiver.stop(0);
        }
        Map<String, Object> stepComplete = received.stream().filter(e -> runId(e).equals(stepId))
                .filter(e -> "COMPLETE".equals(e.get("eventType"))).findFirst().orElseThrow();
        // The pushed event is the one the export answers: same run, time and datasets.
        assertThat(stepComplete.get("eventTime")).isEqualTo(stepRun.getString("eventTime"));
        assertThat(((List<?>) stepComplete.get("outputs"))).hasSize(1);
        for (Object d : (List<?>) stepComplete.get("inputs")) {
            assertThat(((Map<?, ?>) ((Map<?, ?>) d).get("facets")).containsKey("schema")).isTrue();
        }
        Map<String, Object> stepStartEvent = received.stream().filter(e -> runId(e).equals(stepId))
                .filter(e -> "START".equals(e.get("eventType"))).findFirst().orElseThrow();
        assertThat(OffsetDateTime.parse((String) stepStartEvent.get("eventTime")).toInstant())
                .isEqualTo(stepStart.getHeader().getOccurredAt());
        assertThat(OffsetDateTime.parse((String) stepStartEvent.get("eventTime")).getOffset()).isEqualTo(ZoneOffset.UTC);
        assertThat(authorizations).containsOnly("null");
        assertThat(count(OpenLineageDeliveryService.SENT)).isPositive();
        // The queue is the platform outbox's topic: each run's events under its run id as key, in order.
        try (EventProbe queued = EventProbe.on(kafka, Topics.LINEAGE_OPENLINEAGE)) {
            queued.await(OpenLineageRunEvent.class,
                    e -> e.getRunId().equals(parentId) && "COMPLETE".equals(e.getEventType()), WAIT);
            List<EventProbe.Received<OpenLineageRunEvent>> parentEvents =
                    queued.received(OpenLineageRunEvent.class, e -> e.getRunId().equals(parentId));
            assertThat(parentEvents).extracting(EventProbe.Received::key).containsOnly(parentId);
            assertThat(parentEvents).extracting(r -> r.event().getEventType())
                    .containsExactly("START", "RUNNING", "RUNNING", "COMPLETE");
            assertThat(parentEvents).extracting(r -> r.event().getHeader().getInstanceExecId()).containsOnly(801L);
        }
    }

    /**
     * The receiver refuses one run's START (400: the event itself is wrong for it): that event is dead-lettered as
     * invalid instead of holding back the topic, and the run's FAIL behind it still arrives.
     */
    @Test
    void anEventTheBackendRefusesIsDeadLetteredAndTheRunGoesOn() throws Exception {
        JobStarted start = JobStarted.newBuilder().setHeader(Events.header("test", 851L, null)).setProcessId(850)
                .setInstanceExecId(851).setTargetBatchId(8501).setTargetBatchMarking("x").build();
        JobFailed failed = JobFailed.newBuilder().setHeader(Events.header("test", 851L, null)).setProcessId(850)
                .setInstanceExecId(851).setErrorText("boom").build();
        List<String> accepted = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 18733), 0);
        receiver.createContext("/api/v1/lineage", exchange -> {
            Map<String, Object> event = JSON.readValue(new String(exchange.getRequestBody().readAllBytes(),
                    StandardCharsets.UTF_8), new TypeReference<>() { });
            boolean refused = "process-850".equals(((Map<?, ?>) event.get("job")).get("name"))
                    && "START".equals(event.get("eventType"));
            if (!refused) {
                accepted.add(runId(event) + " " + event.get("eventType"));
            }
            exchange.sendResponseHeaders(refused ? 400 : 201, -1);
            exchange.close();
        });
        receiver.start();
        try (EventPublisher publisher = new EventPublisher(kafka)) {
            publisher.publish(Topics.EXECUTION_LIFECYCLE, 850, start);
            publisher.publish(Topics.EXECUTION_LIFECYCLE, 850, failed);
            await().atMost(WAIT).untilAsserted(() -> given().get("/openlineage/runs/851").then().statusCode(200)
                    .body("eventType", org.hamcrest.Matchers.equalTo("FAIL")));
            String runId = given().get("/openlineage/runs/851").then().extract().path("run.runId");
            await().atMost(WAIT).untilAsserted(() -> assertThat(accepted).contains(runId + " FAIL"));
            assertThat(accepted).doesNotContain(runId + " START");
            await().atMost(WAIT).untilAsserted(() -> assertThat(DeadLetters.read(kafka,
                            "batchyard.dlq.lineage-service.openlineage-http").stream()
                    .filter(l -> l.event() instanceof OpenLineageRunEvent e && e.getRunId().equals(runId)))
                    .singleElement().satisfies(l -> {
                        assertThat(((OpenLineageRunEvent) l.event()).getEventType()).isEqualTo("START");
                        assertThat(l.header(RecordProcessor.CLASSIFICATION_HEADER)).isEqualTo("invalid");
                    }));
        } finally {
            receiver.stop(0);
        }
    }

    private static List<String> types(List<Map<String, Object>> received, String runId) {
        return received.stream().filter(e -> runId(e).equals(runId)).map(e -> (String) e.get("eventType")).toList();
    }

    private static String runId(Map<String, Object> event) {
        return (String) ((Map<?, ?>) event.get("run")).get("runId");
    }

    private double count(String name) {
        return meters.find(name).counters().stream().mapToDouble(Counter::count).sum();
    }
}
