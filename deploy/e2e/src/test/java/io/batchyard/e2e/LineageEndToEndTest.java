package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.events.lineage.QueryRegistered;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.Graphviz;
import io.batchyard.teststack.EventPublisher;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lineage across every service: job A cleans orders, job B (fed by A's batches) aggregates them. Their steps register
 * the queries they run while running (A's over Kafka, B's over REST). After HaltJob the column graph spans both jobs,
 * the process graph shows A's run feeding B's, and the DOT renders with Graphviz.
 */
class LineageEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static Stack stack;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
    }

    @Test
    void stepsRegisterQueriesWhileTheyRunAndTheLineageIsQueryableAfterHaltJob() throws Exception {
        String db = "e2e" + System.nanoTime() % 1_000_000;
        lineage().body(Map.of("columns", List.of("order_id", "customer_id", "amount", "status", "note")))
                .put("/tables/" + db + ".orders").then().statusCode(200);
        long app = registry().body(Map.of("name", "lineage-" + System.nanoTime(), "description", "e2e", "owner", "e2e"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        long a = createProcess(app, null, List.of());
        long a1 = createProcess(app, a, List.of());
        long b = createProcess(app, null, List.of());
        long b1 = createProcess(app, b, List.of(a));
        long b2 = createProcess(app, b, List.of());
        link(a, a1);
        link(a1, a);
        link(b, b1);
        link(b1, b2);
        link(b2, b);
        awaitKnown(a1, a);
        awaitKnown(b2, b);

        long runA;
        long batchA;
        long runB;
        long batchB;
        try (EventProbe batches = EventProbe.on(stack.kafka(), Topics.QUEUE_BATCHES);
             EventPublisher publisher = new EventPublisher(stack.kafka())) {
            JsonPath initA = init(a);
            runA = initA.getLong("instanceExecId");
            batchA = initA.getLong("targetBatchId");
            execution().post("/steps/" + a1 + "/init").then().statusCode(200);
            // Step A1 runs its Hive query and registers it on the topic, as the Hive hook would.
            publisher.publish(Topics.LINEAGE_QUERIES, a1, QueryRegistered.newBuilder()
                    .setHeader(Events.header("e2e-hive-hook", runA, null)).setQueryType("HIVE")
                    .setProcessId(a1).setInstanceExecId(runA).setDefaultDatabase(db)
                    .setQueryText("INSERT OVERWRITE TABLE orders_clean "
                            + "SELECT order_id, customer_id, round(amount, 2) AS amount FROM orders WHERE status <> 'X'")
                    .build());
            execution().post("/steps/" + a1 + "/halt").then().statusCode(200);
            execution().body(Map.of("batchMarking", "2024-06-01")).post("/jobs/" + a + "/halt").then().statusCode(200);
            batches.await(BatchEnqueued.class, e -> e.getSourceBatchId() == batchA && e.getConsumerProcessId() == b1, WAIT);

            JsonPath initB = init(b);
            runB = initB.getLong("instanceExecId");
            batchB = initB.getLong("targetBatchId");
            execution().post("/steps/" + b1 + "/init").then().statusCode(200);
            lineage().body(Map.of("queryType", "HIVE", "processId", b1, "instanceExecId", runB, "queryText",
                            "INSERT OVERWRITE TABLE " + db + ".customer_totals SELECT c.customer_id, sum(c.amount) AS total "
                                    + "FROM " + db + ".orders_clean c GROUP BY c.customer_id"))
                    .post("/queries").then().statusCode(201);
            execution().post("/steps/" + b1 + "/halt").then().statusCode(200);
            execution().post("/steps/" + b2 + "/init").then().statusCode(200);
            execution().post("/steps/" + b2 + "/halt").then().statusCode(200);
            execution().body(Map.of("batchMarking", "2024-06-01")).post("/jobs/" + b + "/halt").then().statusCode(200);
        }

        // Column graph: B's total comes from A's input column through both queries; A's unused column is idle.
        await().atMost(WAIT).untilAsserted(() -> {
            JsonPath up = lineage().queryParam("table", db + ".customer_totals").queryParam("column", "total")
                    .queryParam("direction", "upstream").queryParam("depth", 5).get("/lineage/columns").then()
                    .statusCode(200).extract().jsonPath();
            assertThat(up.getList("nodes.key", String.class)).contains(db + ".orders_clean.amount", db + ".orders.amount");
            assertThat(up.getList("edges.processId", Long.class)).contains(a1, b1);
        });
        JsonPath orders = lineage().get("/lineage/tables/" + db + ".orders").then().statusCode(200).extract().jsonPath();
        assertThat(orders.getList("nodes.findAll { it.type == 'IDLE_COLUMN' }.name", String.class)).containsExactly("note");
        JsonPath impact = lineage().get("/lineage/tables/" + db + ".orders/impact").then().statusCode(200)
                .extract().jsonPath();
        assertThat(impact.getList("tables", String.class)).containsExactly(db + ".customer_totals", db + ".orders_clean");
        assertThat(impact.getList("processes", Long.class)).containsExactlyInAnyOrder(a1, b1);

        // Process graph: A's run produced the batch that B's run consumed (after B's HaltJob archived it).
        long finalRunA = runA;
        long finalRunB = runB;
        long finalBatchA = batchA;
        await().atMost(WAIT).untilAsserted(() -> {
            JsonPath process = lineage().get("/lineage/processes/" + b).then().statusCode(200).extract().jsonPath();
            assertThat(process.getList("upstream.fromProcessId", Long.class)).containsExactly(a);
            assertThat(process.getList("upstream.fromRun", Long.class)).containsExactly(finalRunA);
            assertThat(process.getList("upstream.toRun", Long.class)).containsExactly(finalRunB);
            assertThat(process.getList("upstream.consumed", Boolean.class)).containsExactly(true);
            assertThat(process.getList("runs.state", String.class)).containsExactly("SUCCESS");
        });
        lineage().get("/lineage/batches/" + batchB).then().statusCode(200)
                .body("producedBy.instanceExecId", org.hamcrest.Matchers.equalTo((int) runB))
                .body("sources[0].sourceBatchId", org.hamcrest.Matchers.equalTo((int) finalBatchA))
                .body("sources[0].producedBy.processId", org.hamcrest.Matchers.equalTo((int) a));
        JsonPath ol = lineage().get("/openlineage/runs/" + runA).then().statusCode(200).extract().jsonPath();
        assertThat(ol.getString("eventType")).isEqualTo("COMPLETE");
        assertThat(ol.getString("outputs[0].facets.columnLineage.fields.amount.inputFields[0].field")).isEqualTo("amount");
        // WHERE status <> 'X' decides A's rows: a dataset-level INDIRECT input of the output.
        assertThat(ol.getString("outputs[0].facets.columnLineage.dataset[0].field")).isEqualTo("status");
        assertThat(ol.getString("outputs[0].facets.columnLineage.dataset[0].transformations[0].type")).isEqualTo("INDIRECT");

        // Both graphs render with Graphviz.
        String columnDot = lineage().queryParam("table", db + ".customer_totals").queryParam("column", "total")
                .queryParam("direction", "upstream").queryParam("depth", 5).queryParam("format", "dot")
                .get("/lineage/columns").then().statusCode(200).extract().asString();
        String processDot = lineage().queryParam("format", "dot").get("/lineage/processes/" + b).then().statusCode(200)
                .extract().asString();
        assertThat(Graphviz.render(columnDot).exitCode()).isZero();
        assertThat(Graphviz.render(processDot).exitCode()).isZero();
        assertThat(lineage().queryParam("format", "svg").get("/lineage/processes/" + b).then().statusCode(200)
                .extract().asString()).contains("<svg");
    }

    private JsonPath init(long parent) {
        Response init = execution().body(Map.of("maxBatch", 1)).post("/jobs/" + parent + "/init");
        assertThat(init.statusCode()).as(init.asString()).isEqualTo(200);
        return init.jsonPath();
    }

    private long createProcess(long app, Long parent, List<Long> enqueuers) {
        return RegistryFixtures.createProcess(stack, app, parent, enqueuers);
    }

    private void link(long process, long next) {
        RegistryFixtures.link(stack, process, next);
    }

    private void awaitKnown(long process, long next) {
        RegistryFixtures.awaitKnown(stack, process, next, WAIT);
    }

    private static RequestSpecification registry() {
        return given().baseUri(stack.registry.url()).contentType(ContentType.JSON);
    }

    private static RequestSpecification execution() {
        return given().baseUri(stack.execution.url()).contentType(ContentType.JSON);
    }

    private static RequestSpecification lineage() {
        return given().baseUri(stack.lineage.url()).contentType(ContentType.JSON);
    }
}
