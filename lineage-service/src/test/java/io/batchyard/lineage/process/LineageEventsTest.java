package io.batchyard.lineage.process;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.lineage.LineageParsed;
import io.batchyard.events.lineage.QueryRegistered;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.events.queue.BatchesArchived;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.DeadLetters;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.EventPublisher;
import io.batchyard.teststack.Infrastructure;
import io.batchyard.teststack.ProcessTrees;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/** The Kafka side against the real broker: queries from the topic, and process lineage from run and batch events. */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "lineage"))
class LineageEventsTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String kafka;

    @Inject
    MeterRegistry meters;


    /** A script on the topic comes with the values of its variables; its multi-insert writes both targets. */
    @Test
    void aScriptFromTheTopicIsSubstitutedWithTheEventsVariables() {
        QueryRegistered script = QueryRegistered.newBuilder().setHeader(Events.header("test", 701L, null))
                .setQueryType("HIVE").setProcessId(700).setInstanceExecId(701L)
                .setVariables(Map.of("hivevar:db", "kvars"))
                .setQueryText("SET hive.exec.parallel=true; FROM ${hivevar:db}.src s "
                        + "INSERT OVERWRITE TABLE ${hivevar:db}.a SELECT s.k INSERT OVERWRITE TABLE ${hivevar:db}.b SELECT s.v")
                .build();
        try (EventPublisher publisher = new EventPublisher(kafka);
             EventProbe parsed = EventProbe.on(kafka, Topics.LINEAGE_PARSED)) {
            publisher.publish(Topics.LINEAGE_QUERIES, 700, script);
            var ok = parsed.await(LineageParsed.class,
                    e -> script.getHeader().getEventId().equals(Events.headerOf(e).getCorrelationId()), WAIT);
            assertThat(ok.event().getParseStatus()).isEqualTo("PARSED");
            assertThat(ok.event().getInputTables()).containsExactly("kvars.src");
            assertThat(ok.event().getOutputTables()).containsExactlyInAnyOrder("kvars.a", "kvars.b");
        }
        given().queryParam("instanceExecId", 701).get("/queries").then().statusCode(200)
                .body("items[0].statements.index", equalTo(List.of(2)))
                .body("items[0].statements[0].text", equalTo("FROM kvars.src s INSERT OVERWRITE TABLE kvars.a "
                        + "SELECT s.k INSERT OVERWRITE TABLE kvars.b SELECT s.v"));
    }

    /**
     * The registry topic says which application a step belongs to: its runs are named after it (job namespace = the
     * application's name, no job-namespace being set; dataset namespace from application-namespaces).
     */
    @Test
    void aRunIsNamedAfterTheApplicationTheRegistryAnnounced() {
        QueryRegistered query = QueryRegistered.newBuilder().setHeader(Events.header("test", 8804L, null))
                .setQueryType("HIVE").setProcessId(8803).setInstanceExecId(8804L)
                .setQueryText("INSERT OVERWRITE TABLE appns.out SELECT s.k FROM appns.src s").build();
        try (EventPublisher publisher = new EventPublisher(kafka)) {
            publisher.publish(Topics.REGISTRY_PROCESSES, 8801, ProcessTrees.application(8801, "alice", null, 7, 4, 0));
            ProcessTrees.parent(8800).application(8801).step(8803, s -> { }).publish(publisher);
            publisher.publish(Topics.LINEAGE_QUERIES, 8803, query);
        }
        await().atMost(WAIT).untilAsserted(() -> {
            JsonPath ol = given().get("/openlineage/runs/8804").then().statusCode(200).extract().jsonPath();
            assertThat(ol.getString("job.namespace")).isEqualTo("app-8801");
            assertThat(ol.getList("inputs.namespace", String.class)).containsExactly("hive://hive-app.test:10002");
            assertThat(ol.getList("outputs.namespace", String.class)).containsExactly("hive://hive-app.test:10002");
        });
    }

    /**
     * Dataset namespaces come from the server a step names (its type as the scheme, its host and port), else from its
     * parent's, where a {@code server-namespaces} entry for that server's name overrides what the server gives; a run
     * naming no server keeps the default. The job namespace stays the application's name.
     */
    @Test
    void datasetNamespacesComeFromTheServerAStepNames() {
        try (EventPublisher publisher = new EventPublisher(kafka)) {
            publisher.publish(Topics.REGISTRY_PROCESSES, 8812, ProcessTrees.application(8812, "alice", null, 7, 4, 0));
            ProcessTrees.parent(8900).application(8812)
                    .server(89001, "hive-override-8900", "hive", "not-used.test", 10000)
                    .step(8901, s -> s.server(89002, "hive-prod-8901", "HiveServer2", "Hive-Prod.Test", 10000))
                    .step(8902, s -> { })
                    .publish(publisher);
            ProcessTrees.parent(8920).application(8813).step(8921, s -> { }).publish(publisher);
            publisher.publish(Topics.EXECUTION_LIFECYCLE, 8900, JobStarted.newBuilder()
                    .setHeader(Events.header("test", 8910L, null)).setProcessId(8900).setInstanceExecId(8910)
                    .setTargetBatchId(89100).setTargetBatchMarking("m").build());
            for (long step : new long[] {8901, 8902}) {
                publisher.publish(Topics.EXECUTION_LIFECYCLE, 8900, StepStarted.newBuilder()
                        .setHeader(Events.header("test", 8910L, null)).setParentProcessId(8900)
                        .setSubProcessId(step).setSubInstanceExecId(step + 10).setParentInstanceExecId(8910)
                        .setTargetBatchId(89100L).build());
            }
            for (long[] run : new long[][] {{8901, 8911}, {8902, 8912}, {8921, 8922}}) {
                publisher.publish(Topics.LINEAGE_QUERIES, run[0], QueryRegistered.newBuilder()
                        .setHeader(Events.header("test", run[1], null)).setQueryType("HIVE").setProcessId(run[0])
                        .setInstanceExecId(run[1])
                        .setQueryText("INSERT OVERWRITE TABLE srvns.out" + run[0] + " SELECT s.k FROM srvns.src s")
                        .build());
            }
        }
        await().atMost(WAIT).untilAsserted(() -> {
            JsonPath own = given().get("/openlineage/runs/8911").then().statusCode(200).extract().jsonPath();
            assertThat(own.getList("inputs.namespace", String.class)).containsExactly("hive://hive-prod.test:10000");
            assertThat(own.getList("outputs.namespace", String.class)).containsExactly("hive://hive-prod.test:10000");
            assertThat(own.getString("job.namespace")).isEqualTo("app-8812");
            JsonPath parents = given().get("/openlineage/runs/8912").then().statusCode(200).extract().jsonPath();
            assertThat(parents.getList("outputs.namespace", String.class)).containsExactly("hive://override.test:9999");
            JsonPath none = given().get("/openlineage/runs/8922").then().statusCode(200).extract().jsonPath();
            assertThat(none.getList("outputs.namespace", String.class)).containsExactly("hive://localhost:10000");
        });
    }

    @Test
    void aQueryFromTheTopicIsRegisteredOnceAndAPoisonRecordDoesNotStopTheConsumer() {
        QueryRegistered q = QueryRegistered.newBuilder().setHeader(Events.header("test", 501L, null))
                .setQueryType("hive").setProcessId(500).setInstanceExecId(501L).setDefaultDatabase("kafka")
                .setQueryText("INSERT OVERWRITE TABLE out_t SELECT lower(a) AS a FROM in_t").build();
        QueryRegistered broken = QueryRegistered.newBuilder().setHeader(Events.header("test", 501L, null))
                .setQueryType("HIVE").setProcessId(500).setInstanceExecId(501L)
                .setQueryText("this is not SQL at all").build();
        QueryRegistered cobol = QueryRegistered.newBuilder().setHeader(Events.header("test", 501L, null))
                .setQueryType("COBOL").setProcessId(500).setInstanceExecId(501L)
                .setQueryText("MOVE A TO B").build();
        double duplicatesBefore = duplicates();
        try (EventPublisher publisher = new EventPublisher(kafka);
             EventProbe parsed = EventProbe.on(kafka, Topics.LINEAGE_PARSED)) {
            publisher.publishRaw(Topics.LINEAGE_QUERIES, "500", "not avro".getBytes(StandardCharsets.UTF_8));
            publisher.publish(Topics.LINEAGE_QUERIES, 500, q);
            publisher.publish(Topics.LINEAGE_QUERIES, 500, q);
            publisher.publish(Topics.LINEAGE_QUERIES, 500, broken);
            publisher.publish(Topics.LINEAGE_QUERIES, 500, cobol);
            // The outcome is announced through the outbox, correlated to the registering event, once.
            var ok = parsed.await(LineageParsed.class,
                    e -> q.getHeader().getEventId().equals(Events.headerOf(e).getCorrelationId()), WAIT);
            assertThat(ok.key()).isEqualTo("500");
            assertThat(ok.event().getParseStatus()).isEqualTo("PARSED");
            assertThat(ok.event().getInputTables()).containsExactly("kafka.in_t");
            assertThat(ok.event().getOutputTables()).containsExactly("kafka.out_t");
            assertThat(ok.event().getRelationCount()).isEqualTo(2);
            var failed = parsed.await(LineageParsed.class,
                    e -> broken.getHeader().getEventId().equals(Events.headerOf(e).getCorrelationId()), WAIT);
            assertThat(failed.event().getParseStatus()).isEqualTo("FAILED");
            assertThat(failed.event().getParseError()).contains("parse error");
            assertThat(parsed.all(LineageParsed.class,
                    e -> q.getHeader().getEventId().equals(Events.headerOf(e).getCorrelationId()), Duration.ofSeconds(2)))
                    .hasSize(1);
        }
        await().atMost(WAIT).untilAsserted(() -> given().queryParam("processId", 500).get("/queries").then()
                .statusCode(200).body("total", equalTo(3)));
        await().atMost(WAIT).until(() -> duplicates() > duplicatesBefore);
        JsonPath queries = given().queryParam("processId", 500).get("/queries").then().extract().jsonPath();
        assertThat(queries.getList("items.parseStatus", String.class)).containsExactlyInAnyOrder("PARSED", "FAILED",
                "FAILED");
        assertThat(queries.getList("items.parseError", String.class)).anyMatch(e -> e != null
                && e.startsWith("unknown query type 'COBOL'"));
        assertThat(queries.getList("items.registeredVia", String.class)).containsOnly("kafka");
        given().queryParam("table", "kafka.out_t").queryParam("column", "a").queryParam("direction", "upstream")
                .get("/lineage/columns").then().statusCode(200)
                .body("nodes.key", org.hamcrest.Matchers.hasItem("kafka.in_t.a"));
    }

    /**
     * The lifecycle channel in batch mode: a batch commits in one transaction (one {@code processed_at} for its ledger
     * rows); a batch with an undecodable record in the middle is applied one record at a time, the record goes to the
     * dead-letter topic with the decoder's reason, and the others apply once (the repeated JobHalted is dropped).
     */
    @Test
    void aBatchAppliesInOneTransactionAndAnUndecodableRecordInABatchIsDeadLetteredAlone() throws Exception {
        long p = 900;
        JobStarted start1 = JobStarted.newBuilder().setHeader(Events.header("test", 901L, null)).setProcessId(p)
                .setInstanceExecId(901).setTargetBatchId(9001).setTargetBatchMarking("m").build();
        JobHalted halt1 = JobHalted.newBuilder().setHeader(Events.header("test", 901L, null)).setProcessId(p)
                .setInstanceExecId(901).setTargetBatchId(9001).setBatchMarking("2024-08-01").build();
        JobStarted start2 = JobStarted.newBuilder().setHeader(Events.header("test", 902L, null)).setProcessId(p)
                .setInstanceExecId(902).setTargetBatchId(9002).setTargetBatchMarking("m").build();
        JobHalted halt2 = JobHalted.newBuilder().setHeader(Events.header("test", 902L, null)).setProcessId(p)
                .setInstanceExecId(902).setTargetBatchId(9002).setBatchMarking("2024-08-02").build();
        String garbage = "poison-" + java.util.UUID.randomUUID();
        double duplicates = meters.find(ProcessedEventLedger.DUPLICATES).counters().stream()
                .mapToDouble(Counter::count).sum();
        try (EventPublisher publisher = new EventPublisher(kafka)) {
            publisher.publishTogether(Topics.EXECUTION_LIFECYCLE, p, List.of(start1, halt1));
            // The first pair must be applied before the second group is sent: a consumer that polls both groups at
            // once sees the poison in its batch and rightly applies all six records one at a time.
            awaitProducedBySuccess(9001L);
            publisher.publishTogether(Topics.EXECUTION_LIFECYCLE, p,
                    List.of(start2, garbage.getBytes(StandardCharsets.UTF_8), halt2, halt2));
        }
        awaitProducedBySuccess(9002L);
        assertThat(processedAt(start1)).as("one transaction").isEqualTo(processedAt(halt1));
        assertThat(processedAt(start2)).as("one record at a time after the poison").isNotEqualTo(processedAt(halt2));
        DeadLetters.Letter letter = await().atMost(WAIT).until(() -> DeadLetters.read(kafka,
                        "batchyard.dlq.lineage-service.lifecycle").stream()
                .filter(l -> garbage.equals(l.header("deserialization-failure-data"))).findFirst().orElse(null),
                java.util.Objects::nonNull);
        assertThat(letter.header("dead-letter-reason")).isEqualTo("neither a registry record nor a single-object encoded one");
        assertThat(meters.find(ProcessedEventLedger.DUPLICATES).counters().stream().mapToDouble(Counter::count).sum()
                - duplicates).isEqualTo(1);
    }

    /**
     * A poll's run and batch events are written folded, one statement per table: a step run that starts and ends and
     * a job that starts and halts in one batch are stored as applying them one after the other leaves them, next to a
     * job that fails without a target batch; so are offers and an archive of two source batches polled together.
     */
    @Test
    void aBatchWhoseRunsStartAndEndIsStoredAsAppliedOneByOne() throws Exception {
        long p = 9500;
        JobStarted start = JobStarted.newBuilder().setHeader(Events.header("test", 9501L, null)).setProcessId(p)
                .setInstanceExecId(9501).setTargetBatchId(95001).setTargetBatchMarking("2024-09-01").build();
        StepStarted stepStart = StepStarted.newBuilder().setHeader(Events.header("test", 9511L, null))
                .setParentProcessId(9510).setSubProcessId(9512).setSubInstanceExecId(9513)
                .setParentInstanceExecId(9511).build();
        StepHalted stepEnd = StepHalted.newBuilder().setHeader(Events.header("test", 9511L, null))
                .setParentProcessId(9510).setSubProcessId(9512).setSubInstanceExecId(9513)
                .setParentInstanceExecId(9511).build();
        JobHalted halt = JobHalted.newBuilder().setHeader(Events.header("test", 9501L, null)).setProcessId(p)
                .setInstanceExecId(9501).setTargetBatchId(95001).setBatchMarking("2024-09-01").build();
        BatchEnqueued offered = BatchEnqueued.newBuilder().setHeader(Events.header("test", 9501L, null))
                .setQueueId(9520).setSourceBatchId(95001).setSourceProcessId(p).setConsumerProcessId(9512)
                .setBatchMarking("2024-09-01").build();
        // Columns without a value travel as nulls within the statements' arrays.
        JobFailed otherFailed = JobFailed.newBuilder().setHeader(Events.header("test", 9502L, null)).setProcessId(p)
                .setInstanceExecId(9502).setErrorText("boom").build();
        BatchEnqueued offeredBySomeone = BatchEnqueued.newBuilder().setHeader(Events.header("test", 9501L, null))
                .setQueueId(9521).setSourceBatchId(95003).setConsumerProcessId(9512).build();
        BatchesArchived archived = BatchesArchived.newBuilder().setHeader(Events.header("test", 9511L, null))
                .setParentProcessId(9510).setTargetBatchId(95101).setSourceBatchIds(List.of(95001L, 95002L)).build();
        try (EventPublisher publisher = new EventPublisher(kafka)) {
            publisher.publishTogether(Topics.EXECUTION_LIFECYCLE, p,
                    List.of(start, stepStart, otherFailed, stepEnd, halt));
            publisher.publishTogether(Topics.QUEUE_BATCHES, 9510, List.of(offered, archived, offeredBySomeone));
        }
        Infrastructure.Database db = BatchyardTestStack.database();
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(db.firstColumn("""
                    SELECT concat_ws(' ', state, target_batch_id, batch_marking, %s, %s) FROM process_run
                     WHERE instance_exec_id = 9501""".formatted(millis("started_at"), millis("ended_at"))))
                    .containsExactly("SUCCESS 95001 2024-09-01 " + occurred(start) + " " + occurred(halt));
            assertThat(db.firstColumn("""
                    SELECT concat_ws(' ', state, target_batch_id IS NULL, batch_marking IS NULL, %s) FROM process_run
                     WHERE instance_exec_id = 9502""".formatted(millis("ended_at"))))
                    .containsExactly("FAILED t t " + occurred(otherFailed));
            assertThat(db.firstColumn("""
                    SELECT concat_ws(' ', state, sub_process_id, parent_process_id, parent_instance_exec_id, %s, %s)
                      FROM step_run WHERE sub_instance_exec_id = 9513""".formatted(millis("started_at"),
                    millis("ended_at"))))
                    .containsExactly("SUCCESS 9512 9510 9511 " + occurred(stepStart) + " " + occurred(stepEnd));
            assertThat(db.firstColumn("""
                    SELECT concat_ws(' ', source_batch_id, source_process_id, consumer_process_id, batch_marking, %s)
                      FROM batch_enqueue WHERE queue_id = 9520""".formatted(millis("enqueued_at"))))
                    .containsExactly("95001 9500 9512 2024-09-01 " + occurred(offered));
            assertThat(db.firstColumn("""
                    SELECT concat_ws(' ', source_batch_id, source_process_id IS NULL, batch_marking IS NULL)
                      FROM batch_enqueue WHERE queue_id = 9521"""))
                    .containsExactly("95003 t t");
            assertThat(db.firstColumn("""
                    SELECT concat_ws(' ', parent_process_id, source_batch_id, %s) FROM batch_consumption
                     WHERE target_batch_id = 95101 ORDER BY source_batch_id""".formatted(millis("archived_at"))))
                    .containsExactly("9510 95001 " + occurred(archived), "9510 95002 " + occurred(archived));
        });
        assertThat(List.of(processedAt(stepStart), processedAt(otherFailed), processedAt(stepEnd), processedAt(halt)))
                .as("one transaction").containsOnly(processedAt(start));
    }

    private static String millis(String column) {
        return "CAST(extract(epoch FROM " + column + ") * 1000 AS bigint)";
    }

    private static long occurred(org.apache.avro.specific.SpecificRecord event) {
        return Events.headerOf(event).getOccurredAt().toEpochMilli();
    }

    private static void awaitProducedBySuccess(long batch) {
        await().atMost(WAIT).untilAsserted(() -> given().get("/lineage/batches/" + batch).then().statusCode(200)
                .body("producedBy.state", equalTo("SUCCESS")));
    }

    private static String processedAt(org.apache.avro.specific.SpecificRecord event) throws Exception {
        Infrastructure.Database db = BatchyardTestStack.database();
        try (Connection c = db.connect();
             var s = c.prepareStatement("SELECT processed_at::text FROM processed_event"
                     + " WHERE consumer = 'lineage-process' AND event_id = ?")) {
            s.setObject(1, Events.eventId(event));
            try (ResultSet rs = s.executeQuery()) {
                assertThat(rs.next()).as("ledger row of %s", event).isTrue();
                return rs.getString(1);
            }
        }
    }

    /** P (run 601) produces batch 6001; Q's step 611 consumes it in run 602, which produces 6002. */
    @Test
    void runAndBatchEventsGiveBatchAndProcessLineageAppliedOnce() throws Exception {
        long p = 600;
        long q = 610;
        long step = 611;
        JobStarted startP = JobStarted.newBuilder().setHeader(Events.header("test", 601L, null)).setProcessId(p)
                .setInstanceExecId(601).setTargetBatchId(6001).setTargetBatchMarking("m").build();
        JobHalted haltP = JobHalted.newBuilder().setHeader(Events.header("test", 601L, null)).setProcessId(p)
                .setInstanceExecId(601).setTargetBatchId(6001).setBatchMarking("2024-05-01").build();
        BatchEnqueued toQ = BatchEnqueued.newBuilder().setHeader(Events.header("test", 601L, null)).setQueueId(6100)
                .setSourceBatchId(6001).setSourceProcessId(p).setConsumerProcessId(step).setBatchMarking("2024-05-01").build();
        JobStarted startQ = JobStarted.newBuilder().setHeader(Events.header("test", 602L, null)).setProcessId(q)
                .setInstanceExecId(602).setTargetBatchId(6002).setTargetBatchMarking("2024-05-01").build();
        StepStarted stepQ = StepStarted.newBuilder().setHeader(Events.header("test", 602L, null)).setParentProcessId(q)
                .setSubProcessId(step).setSubInstanceExecId(603).setParentInstanceExecId(602).setTargetBatchId(6002L).build();
        BatchesArchived archived = BatchesArchived.newBuilder().setHeader(Events.header("test", 602L, null))
                .setParentProcessId(q).setTargetBatchId(6002).setSourceBatchIds(List.of(6001L)).build();
        JobHalted haltQ = JobHalted.newBuilder().setHeader(Events.header("test", 602L, null)).setProcessId(q)
                .setInstanceExecId(602).setTargetBatchId(6002).setBatchMarking("2024-05-01").build();
        QueryRegistered query = QueryRegistered.newBuilder().setHeader(Events.header("test", 603L, null))
                .setQueryType("HIVE").setProcessId(step).setInstanceExecId(603L)
                .setQueryText("INSERT OVERWRITE TABLE ol.facts SELECT upper(s.name) AS name, s.id FROM ol.src s").build();
        try (EventPublisher publisher = new EventPublisher(kafka)) {
            publisher.publishRaw(Topics.EXECUTION_LIFECYCLE, "600", new byte[] {(byte) 0xC3, 1, 2});
            publisher.publish(Topics.EXECUTION_LIFECYCLE, p, startP);
            publisher.publish(Topics.EXECUTION_LIFECYCLE, p, haltP);
            publisher.publish(Topics.EXECUTION_LIFECYCLE, p, haltP);
            publisher.publish(Topics.QUEUE_BATCHES, step, toQ);
            publisher.publish(Topics.EXECUTION_LIFECYCLE, q, startQ);
            publisher.publish(Topics.EXECUTION_LIFECYCLE, q, stepQ);
            publisher.publish(Topics.LINEAGE_QUERIES, step, query);
            publisher.publish(Topics.QUEUE_BATCHES, q, archived);
            publisher.publish(Topics.QUEUE_BATCHES, q, archived);
            publisher.publish(Topics.EXECUTION_LIFECYCLE, q, haltQ);
        }
        await().atMost(WAIT).untilAsserted(() -> given().get("/lineage/batches/6002").then().statusCode(200)
                .body("producedBy.instanceExecId", equalTo(602)).body("producedBy.state", equalTo("SUCCESS"))
                .body("sources[0].sourceBatchId", equalTo(6001))
                .body("sources[0].producedBy.processId", equalTo(600))
                .body("sources[0].producedBy.instanceExecId", equalTo(601)));
        given().get("/lineage/batches/6001").then().statusCode(200)
                .body("producedBy.processId", equalTo(600)).body("producedBy.batchMarking", equalTo("2024-05-01"))
                .body("enqueuedTo[0].consumerProcessId", equalTo(611))
                .body("consumedBy.instanceExecId", equalTo(List.of(602)));
        long consumed;
        Infrastructure.Database db = BatchyardTestStack.database();
        try (Connection c = db.connect();
             ResultSet rs = c.createStatement().executeQuery(
                     "SELECT count(*) FROM batch_consumption WHERE target_batch_id = 6002")) {
            rs.next();
            consumed = rs.getLong(1);
        }
        assertThat(consumed).isEqualTo(1);

        JsonPath process = given().get("/lineage/processes/" + q).then().statusCode(200).extract().jsonPath();
        assertThat(process.getList("runs.instanceExecId", Long.class)).containsExactly(602L);
        assertThat(process.getList("upstream.fromProcessId", Long.class)).containsExactly(600L);
        assertThat(process.getList("upstream.fromRun", Long.class)).containsExactly(601L);
        assertThat(process.getList("upstream.toRun", Long.class)).containsExactly(602L);
        given().get("/lineage/processes/" + p).then().statusCode(200).body("downstream.toProcessId", equalTo(List.of(610)));
        String dot = given().get("/lineage/processes/" + q + "?format=dot").then().statusCode(200).extract().asString();
        assertThat(dot).contains("\"p600\" -> \"p610\"");
        given().get("/lineage/batches/6002?format=svg").then().statusCode(200).body(org.hamcrest.Matchers.containsString("<svg"));

        // OpenLineage: the step's query counts for the parent run 602 (found through StepStarted).
        await().atMost(WAIT).untilAsserted(() -> {
            JsonPath ol = given().get("/openlineage/runs/602").then().statusCode(200).extract().jsonPath();
            assertThat(ol.getString("eventType")).isEqualTo("COMPLETE");
            assertThat(ol.getString("job.name")).isEqualTo("process-610");
            // no registry event names 610's application: the default job namespace
            assertThat(ol.getString("job.namespace")).isEqualTo("batchyard");
            assertThat(ol.getList("inputs.name", String.class)).containsExactly("ol.src");
            Map<String, Object> name = ol.getMap("outputs[0].facets.columnLineage.fields.name.inputFields[0]");
            assertThat(name).containsEntry("name", "ol.src").containsEntry("field", "name");
            assertThat(ol.getString("outputs[0].facets.columnLineage.fields.name.inputFields[0].transformations[0].subtype"))
                    .isEqualTo("TRANSFORMATION");
            assertThat(ol.getString("outputs[0].facets.columnLineage.fields.id.inputFields[0].transformations[0].subtype"))
                    .isEqualTo("IDENTITY");
        });
        given().get("/openlineage/runs/999999").then().statusCode(404).body("code", equalTo(504));
        // Run 601 registered no query: still a valid RunEvent, with no datasets.
        JsonPath noQueries = given().get("/openlineage/runs/601").then().statusCode(200).extract().jsonPath();
        assertThat(noQueries.getString("eventType")).isEqualTo("COMPLETE");
        assertThat(noQueries.getString("job.name")).isEqualTo("process-600");
        assertThat(noQueries.getString("run.runId")).isNotBlank();
        assertThat(noQueries.getList("inputs")).isEmpty();
        assertThat(noQueries.getList("outputs")).isEmpty();
    }

    /** Duplicate deliveries the ledger dropped, over every consumer, as its counter says. */
    private double duplicates() {
        return meters.find(ProcessedEventLedger.DUPLICATES).counters().stream().mapToDouble(Counter::count).sum();
    }
}
