package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
 * OpenLineage pushed as a pipeline runs: a job with two steps, each registering the query it runs, goes through the
 * lifecycle while the test's OpenLineage receiver is still down; once it is up, every step run arrives as START then
 * COMPLETE and the parent as START, RUNNING per step start and end, COMPLETE, with the same run ids the export answers, the steps inside their parent, and a {@code schema}
 * facet on every dataset.
 */
class OpenLineageEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    /**
     * How long the events that waited may take to reach the backend once it is up: the push's breaker, opened while
     * nothing listened, stays open 30 s before it tries again, and the backlog is sent oldest first, behind every
     * other run the shared stack made meanwhile.
     */
    private static final Duration DRAIN = Duration.ofSeconds(120);
    private static Stack stack;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
    }

    @Test
    void everyRunArrivesAsStartThenCompleteAfterTheBackendComesUp() throws Exception {
        String db = "ol" + System.nanoTime() % 1_000_000;
        lineage().body(Map.of("columns", List.of("id", "customer", "amount"),
                        "types", Map.of("id", "bigint", "customer", "string", "amount", "decimal(10,2)")))
                .put("/tables/" + db + ".orders").then().statusCode(200);
        long app = registry().body(Map.of("name", "openlineage-" + System.nanoTime(), "description", "e2e",
                "owner", "e2e")).post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        long job = RegistryFixtures.createProcess(stack, app, null, List.of());
        long clean = RegistryFixtures.createProcess(stack, app, job, List.of());
        long total = RegistryFixtures.createProcess(stack, app, job, List.of());
        // The cleaning step names the Hive server it runs on: its datasets are named after it.
        String host = "hive-" + System.nanoTime() % 1_000_000 + ".e2e.example";
        long server = registry().body(Map.of("serverType", "hive", "serverName", host, "serverIp", host,
                "serverPort", 10000, "loginPassword", "e2e-secret")).post("/servers").then().statusCode(201)
                .extract().jsonPath().getLong("id");
        registry().body(Map.of("serverId", server)).patch("/processes/" + clean).then().statusCode(200);
        RegistryFixtures.link(stack, job, clean);
        RegistryFixtures.link(stack, clean, total);
        RegistryFixtures.link(stack, total, job);
        RegistryFixtures.awaitKnown(stack, total, job, WAIT);

        Response init = execution().body(Map.of("maxBatch", 1)).post("/jobs/" + job + "/init");
        assertThat(init.statusCode()).as(init.asString()).isEqualTo(200);
        long run = init.jsonPath().getLong("instanceExecId");
        long cleanRun = step(clean, "INSERT OVERWRITE TABLE " + db + ".orders_clean "
                + "SELECT id, customer, round(amount, 2) AS amount FROM " + db + ".orders WHERE amount > 0");
        long totalRun = step(total, "CREATE TABLE " + db + ".totals AS SELECT customer, sum(amount) AS total "
                + "FROM " + db + ".orders_clean GROUP BY customer");
        execution().body(Map.of("batchMarking", "2024-06-01")).post("/jobs/" + job + "/halt").then().statusCode(200);

        // All three runs ended while nothing listened: their events wait in lineage-service.
        Map<Long, String> runIds = new java.util.LinkedHashMap<>();
        await().atMost(WAIT).untilAsserted(() -> {
            for (long id : List.of(run, cleanRun, totalRun)) {
                JsonPath exported = lineage().get("/openlineage/runs/" + id).then().statusCode(200).extract().jsonPath();
                assertThat(exported.getString("eventType")).as("run " + id).isEqualTo("COMPLETE");
                runIds.put(id, exported.getString("run.runId"));
            }
            // The registry told lineage-service which server the cleaning step names (the export is built now).
            JsonPath cleaned = lineage().get("/openlineage/runs/" + cleanRun).then().extract().jsonPath();
            assertThat(cleaned.getList("inputs.namespace", String.class)).containsOnly("hive://" + host + ":10000");
            assertThat(cleaned.getList("outputs.namespace", String.class)).containsOnly("hive://" + host + ":10000");
        });

        try (OpenLineageReceiver receiver = OpenLineageReceiver.start()) {
            // Steps: START then COMPLETE. The parent: START, RUNNING as each step starts and ends, COMPLETE.
            await().atMost(DRAIN).untilAsserted(() -> runIds.forEach((run1, id) ->
                    assertThat(receiver.of(id).stream().map(e -> e.getString("eventType")).toList())
                            .as("events of run " + id).containsExactlyElementsOf(run1 == run
                                    ? List.of("START", "RUNNING", "RUNNING", "RUNNING", "RUNNING", "COMPLETE")
                                    : List.of("START", "COMPLETE"))));
            for (long id : List.of(cleanRun, totalRun)) {
                JsonPath complete = receiver.of(runIds.get(id)).get(1);
                assertThat(complete.getString("run.facets.parent.run.runId")).isEqualTo(runIds.get(run));
                assertThat(complete.getList("outputs")).hasSize(1);
                if (id == cleanRun) {
                    // registered types, and on the output the type of the column each one copies
                    assertThat(complete.getString("inputs[0].facets.schema.fields.find { it.name == 'customer' }.type"))
                            .isEqualTo("string");
                    assertThat(complete.getString("outputs[0].facets.schema.fields.find { it.name == 'id' }.type"))
                            .isEqualTo("bigint");
                }
                for (String side : List.of("inputs", "outputs")) {
                    List<Map<String, Object>> datasets = complete.getList(side);
                    assertThat(datasets).as(side + " of run " + id).isNotEmpty();
                    datasets.forEach(d -> assertThat(((Map<?, ?>) d.get("facets")).containsKey("schema"))
                            .as(d.get("name") + " has a schema facet").isTrue());
                }
            }
            JsonPath parent = receiver.of(runIds.get(run)).get(5);
            assertThat(parent.getString("run.facets.nominalTime.nominalStartTime")).isEqualTo("2024-06-01T00:00:00Z");
            assertThat(parent.getList("outputs.name", String.class))
                    .containsExactlyInAnyOrder(db + ".orders_clean", db + ".totals");
            JsonPath ctas = receiver.of(runIds.get(totalRun)).get(1);
            assertThat(ctas.getString("outputs[0].facets.lifecycleStateChange.lifecycleStateChange")).isEqualTo("CREATE");
            assertThat(ctas.getList("outputs[0].facets.schema.fields.name", String.class))
                    .containsExactly("customer", "total");
            assertThat(ctas.getString("outputs[0].facets.columnLineage.fields.total.inputFields[0].transformations[0].subtype"))
                    .isEqualTo("AGGREGATION");
        }
    }

    /** Starts the step, registers the query it runs under its own run id, and halts it. */
    private long step(long step, String query) {
        long stepRun = execution().post("/steps/" + step + "/init").then().statusCode(200).extract().jsonPath()
                .getLong("subInstanceExecId");
        lineage().body(Map.of("queryType", "HIVE", "processId", step, "instanceExecId", stepRun, "queryText", query))
                .post("/queries").then().statusCode(201);
        execution().post("/steps/" + step + "/halt").then().statusCode(200);
        return stepRun;
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
