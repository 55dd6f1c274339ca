package io.batchyard.lineage;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.EventPublisher;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who may see which lineage: two teams' applications as the registry announces them, each with a job whose step
 * registered a query reading the same shared table, one run each, and a batch of team A's offered to team B's step.
 * Every read answers a caller without read permission on the object's application as if the object did not exist;
 * lists and graphs keep only what the caller's readable processes contributed; registering a query needs write
 * permission on its process's application.
 */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "lineage"))
class ApplicationPermissionTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Team A: ana owns it (7), its group reads (4), others nothing. Team B: bob owns it, nobody else sees it. */
    private static final long APP_A = 9701;
    private static final long APP_B = 9702;
    /** Announced with its processes, never with its permissions: nobody but an administrator sees it. */
    private static final long APP_UNKNOWN = 9703;
    private static final long JOB_A = 97100;
    private static final long STEP_A = 97101;
    private static final long RUN_A = 97110;
    private static final long BATCH_A = 971100;
    private static final long JOB_B = 97200;
    private static final long STEP_B = 97201;
    private static final long RUN_B = 97210;
    private static final long BATCH_B = 972100;
    private static final long JOB_UNKNOWN = 97300;
    private static final long STEP_UNKNOWN = 97301;

    private static String queryA;
    private static String queryB;
    private static String queryUnknown;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String kafka;

    @Inject
    Pool pool;

    private static final String ANA = Identity.get().token("ana", Set.of("developer"), Set.of());
    private static final String CAROL = Identity.get().token("carol", Set.of("developer"), Set.of("team-a"));
    private static final String DAVE = Identity.get().token("dave", Set.of("developer"), Set.of());
    private static final String BOB = Identity.get().token("bob", Set.of("viewer"), Set.of());

    @BeforeEach
    void twoTeams() throws IOException {
        if (queryA != null) {
            return;
        }
        try (EventPublisher publisher = new EventPublisher(kafka)) {
            publisher.publish(Topics.REGISTRY_PROCESSES, APP_A,
                    ProcessTrees.application(APP_A, "ana", "team-a", 7, 4, 0));
            publisher.publish(Topics.REGISTRY_PROCESSES, APP_B, ProcessTrees.application(APP_B, "bob", null, 7, 0, 0));
            ProcessTrees.parent(JOB_A).application(APP_A).step(STEP_A, s -> { }).register(publisher, WAIT);
            ProcessTrees.parent(JOB_B).application(APP_B).step(STEP_B, s -> s.enqueuedBy(JOB_A))
                    .register(publisher, WAIT);
            ProcessTrees.parent(JOB_UNKNOWN).application(APP_UNKNOWN).step(STEP_UNKNOWN, s -> { })
                    .register(publisher, WAIT);
            for (long[] run : new long[][] {{JOB_A, STEP_A, RUN_A, BATCH_A}, {JOB_B, STEP_B, RUN_B, BATCH_B}}) {
                publisher.publish(Topics.EXECUTION_LIFECYCLE, run[0], JobStarted.newBuilder()
                        .setHeader(Events.header("test", run[2], null)).setProcessId(run[0]).setInstanceExecId(run[2])
                        .setTargetBatchId(run[3]).setTargetBatchMarking("2024-06-01").build());
                publisher.publish(Topics.EXECUTION_LIFECYCLE, run[0], StepStarted.newBuilder()
                        .setHeader(Events.header("test", run[2], null)).setParentProcessId(run[0])
                        .setSubProcessId(run[1]).setSubInstanceExecId(run[2] + 1).setParentInstanceExecId(run[2])
                        .setTargetBatchId(run[3]).build());
            }
            publisher.publish(Topics.EXECUTION_LIFECYCLE, JOB_A, JobHalted.newBuilder()
                    .setHeader(Events.header("test", RUN_A, null)).setProcessId(JOB_A).setInstanceExecId(RUN_A)
                    .setTargetBatchId(BATCH_A).setBatchMarking("2024-06-01").build());
            // Team B's step takes team A's batches.
            publisher.publish(Topics.QUEUE_BATCHES, STEP_B, BatchEnqueued.newBuilder()
                    .setHeader(Events.header("test", RUN_A, null)).setQueueId(97500).setSourceBatchId(BATCH_A)
                    .setSourceProcessId(JOB_A).setConsumerProcessId(STEP_B).setBatchMarking("2024-06-01").build());
        }
        queryA = register(given(), STEP_A, RUN_A, "INSERT OVERWRITE TABLE acc.shared_out SELECT s.a FROM acc.src s")
                .then().statusCode(201).extract().path("id");
        queryB = register(given(), STEP_B, RUN_B, "INSERT OVERWRITE TABLE acc.shared_out SELECT s.b FROM acc.src s;\n"
                + "INSERT OVERWRITE TABLE acc.b_only SELECT s.c FROM acc.src s").then().statusCode(201)
                .extract().path("id");
        queryUnknown = register(given(), STEP_UNKNOWN, null,
                "INSERT OVERWRITE TABLE acc.unknown_out SELECT s.d FROM acc.src s").then().statusCode(201)
                .extract().path("id");
        // The runs and the offer reach lineage through their topics; the permissions through the registry's.
        await().atMost(WAIT).untilAsserted(() -> {
            given().get("/lineage/batches/" + BATCH_A).then().statusCode(200);
            assertThat(given().get("/lineage/batches/" + BATCH_A).jsonPath().getList("enqueuedTo")).hasSize(1);
            given().get("/lineage/processes/" + JOB_B).then().statusCode(200);
            as(ANA).get("/queries/" + queryA).then().statusCode(200);
            as(BOB).get("/queries/" + queryB).then().statusCode(200);
        });
        deliverPushedRunEvents();
    }

    /**
     * The runs above queued OpenLineage events for the test profile's receiver, where nothing listens: one takes them
     * until none waits (run A's end arrived, the outbox published everything and the HTTP delivery consumed its topic
     * to the end), so that their retries do not go on changing the ledger under the tests that follow.
     */
    private void deliverPushedRunEvents() throws IOException {
        List<String> received = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 18733), 0);
        receiver.createContext("/api/v1/lineage", exchange -> {
            received.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(201, -1);
            exchange.close();
        });
        receiver.start();
        try {
            await().atMost(WAIT).until(() -> received.stream().anyMatch(e -> e.contains("\"process-" + JOB_A + "\"")
                    && e.contains("\"COMPLETE\"")));
            await().atMost(WAIT).until(this::noPushedEventWaits);
        } finally {
            receiver.stop(0);
        }
    }

    private boolean noPushedEventWaits() throws Exception {
        long unpublished = pool.query("SELECT count(*) FROM outbox_event WHERE published_at IS NULL").execute()
                .await().atMost(WAIT).iterator().next().getLong(0);
        if (unpublished > 0) {
            return false;
        }
        String topic = Topics.LINEAGE_OPENLINEAGE;
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka))) {
            Map<TopicPartition, OffsetAndMetadata> consumed = admin
                    .listConsumerGroupOffsets("lineage-service-openlineage-http").partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
            admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions()
                    .forEach(p -> ends.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
            return admin.listOffsets(ends).all().get().entrySet().stream().allMatch(end -> end.getValue().offset()
                    <= Optional.ofNullable(consumed.get(end.getKey())).map(OffsetAndMetadata::offset).orElse(0L));
        }
    }

    @Test
    void anotherTeamsQueryRunAndLineageAreNotFound() {
        problem(as(ANA).get("/queries/" + queryB), 404, 501);
        problem(as(ANA).get("/lineage/processes/" + JOB_B), 404, 508);
        problem(as(ANA).get("/lineage/processes/" + STEP_B), 404, 508);
        problem(as(ANA).get("/lineage/batches/" + BATCH_B), 404, 502);
        problem(as(ANA).get("/openlineage/runs/" + RUN_B), 404, 504);
        problem(as(ANA).get("/openlineage/runs/" + (RUN_B + 1)), 404, 504);
        // The same answers as for objects that do not exist at all, and nothing of team B in them.
        problem(as(ANA).get("/lineage/processes/" + 97999), 404, 508);
        assertThat(as(ANA).get("/lineage/batches/" + BATCH_B).jsonPath().getString("detail"))
                .doesNotContain(String.valueOf(JOB_B));

        as(BOB).get("/queries/" + queryB).then().statusCode(200);
        as(BOB).get("/lineage/processes/" + JOB_B).then().statusCode(200);
        as(BOB).get("/lineage/batches/" + BATCH_B).then().statusCode(200);
        as(BOB).get("/openlineage/runs/" + RUN_B).then().statusCode(200);
        problem(as(BOB).get("/queries/" + queryA), 404, 501);
        problem(as(BOB).get("/lineage/batches/" + BATCH_A), 404, 502);
        problem(as(BOB).get("/openlineage/runs/" + RUN_A), 404, 504);
        // A member of team A's group reads team A's lineage.
        as(CAROL).get("/openlineage/runs/" + RUN_A).then().statusCode(200);
        as(CAROL).get("/lineage/processes/" + JOB_A).then().statusCode(200);
        problem(as(DAVE).get("/lineage/processes/" + JOB_A), 404, 508);
    }

    @Test
    void aProcessOfAnApplicationWithoutKnownPermissionsIsAnAdministratorsOnly() {
        problem(as(ANA).get("/queries/" + queryUnknown), 404, 501);
        given().get("/queries/" + queryUnknown).then().statusCode(200);
    }

    @Test
    void handOversToAnotherTeamsProcessesAreLeftOut() {
        JsonPath admin = given().get("/lineage/batches/" + BATCH_A).jsonPath();
        assertThat(admin.getList("enqueuedTo.consumerProcessId", Long.class)).containsExactly(STEP_B);
        JsonPath ana = as(ANA).get("/lineage/batches/" + BATCH_A).then().statusCode(200).extract().jsonPath();
        assertThat(ana.getLong("producedBy.processId")).isEqualTo(JOB_A);
        assertThat(ana.getList("enqueuedTo")).isEmpty();

        assertThat(given().get("/lineage/processes/" + JOB_A).jsonPath().getList("downstream")).hasSize(1);
        JsonPath anaProcess = as(ANA).get("/lineage/processes/" + JOB_A).then().statusCode(200).extract().jsonPath();
        assertThat(anaProcess.getList("runs.instanceExecId", Long.class)).containsExactly(RUN_A);
        assertThat(anaProcess.getList("downstream")).isEmpty();
        // Team B sees where its queue's batch came from only as far as it may read: not team A's process.
        assertThat(given().get("/lineage/processes/" + JOB_B).jsonPath().getList("upstream")).hasSize(1);
        assertThat(as(BOB).get("/lineage/processes/" + JOB_B).jsonPath().getList("upstream")).isEmpty();
    }

    @Test
    void listsKeepOnlyTheQueriesOfReadableProcesses() {
        List<String> anas = as(ANA).queryParam("limit", 500).get("/queries").then().statusCode(200).extract()
                .jsonPath().getList("items.id", String.class);
        assertThat(anas).contains(queryA).doesNotContain(queryB, queryUnknown);
        as(ANA).queryParam("processId", STEP_B).get("/queries").then().statusCode(200)
                .body("total", org.hamcrest.Matchers.equalTo(0));
        as(BOB).queryParam("processId", STEP_B).get("/queries").then().statusCode(200)
                .body("total", org.hamcrest.Matchers.equalTo(1));
        List<String> admins = given().queryParam("limit", 500).get("/queries").jsonPath()
                .getList("items.id", String.class);
        assertThat(admins).contains(queryA, queryB, queryUnknown);
    }

    @Test
    void theColumnAndTableGraphsLeaveOutAnotherTeamsEdges() {
        JsonPath admin = given().get("/lineage/tables/acc.src").then().statusCode(200).extract().jsonPath();
        assertThat(admin.getList("nodes.key", String.class))
                .contains("acc.src.a", "acc.src.b", "acc.src.c", "acc.shared_out.b", "acc.b_only.c");

        JsonPath ana = as(ANA).get("/lineage/tables/acc.src").then().statusCode(200).extract().jsonPath();
        assertThat(ana.getList("nodes.key", String.class)).contains("acc.src.a", "acc.shared_out.a")
                .doesNotContain("acc.src.b", "acc.src.c", "acc.shared_out.b", "acc.b_only", "acc.b_only.c",
                        "acc.unknown_out", "acc.src.d");
        assertThat(ana.getList("edges.queryId", String.class)).isNotEmpty().allMatch(queryA::equals);
        assertThat(ana.getList("edges.processId", Long.class)).containsOnly(STEP_A);

        // The shared output table: team A's column only, and its upstream is team A's column only.
        JsonPath shared = as(ANA).queryParam("direction", "upstream").get("/lineage/tables/acc.shared_out").then()
                .statusCode(200).extract().jsonPath();
        assertThat(shared.getList("nodes.key", String.class)).contains("acc.shared_out.a", "acc.src.a")
                .doesNotContain("acc.shared_out.b", "acc.src.b");

        JsonPath impact = as(ANA).get("/lineage/tables/acc.src/impact").then().statusCode(200).extract().jsonPath();
        assertThat(impact.getList("tables", String.class)).containsExactly("acc.shared_out");
        assertThat(impact.getList("processes", Long.class)).containsExactly(STEP_A);
        assertThat(impact.getList("queries", String.class)).containsExactly(queryA);
        JsonPath bobsImpact = as(BOB).get("/lineage/tables/acc.src/impact").then().statusCode(200).extract()
                .jsonPath();
        assertThat(bobsImpact.getList("tables", String.class)).containsExactly("acc.b_only", "acc.shared_out");

        // A table or column only another team's queries name is as unknown as one nobody names.
        problem(as(ANA).get("/lineage/tables/acc.b_only"), 404, 507);
        problem(as(ANA).get("/lineage/tables/acc.b_only/impact"), 404, 507);
        problem(as(ANA).queryParam("table", "acc.src").queryParam("column", "b").get("/lineage/columns"), 404, 503);
        as(ANA).queryParam("table", "acc.src").queryParam("column", "a").get("/lineage/columns").then().statusCode(200);
        JsonPath down = as(ANA).queryParam("table", "acc.src").queryParam("column", "a")
                .queryParam("direction", "downstream").get("/lineage/columns").then().statusCode(200).extract()
                .jsonPath();
        assertThat(down.getList("nodes.key", String.class)).contains("acc.shared_out.a")
                .doesNotContain("acc.shared_out.b");
        as(BOB).get("/lineage/tables/acc.b_only").then().statusCode(200);
        // Where the DOT is drawn from the same graph, it names nothing of team B's either.
        String dot = as(ANA).queryParam("format", "dot").get("/lineage/tables/acc.src").then().statusCode(200)
                .extract().asString();
        assertThat(dot).contains("acc.src").doesNotContain("b_only").doesNotContain("unknown_out");
    }

    @Test
    void registeringAQueryNeedsWritePermissionOnItsProcess() {
        // Team B's process does not exist for ana; team A's does, and she may write it.
        problem(register(as(ANA), STEP_B, null, "INSERT OVERWRITE TABLE acc.planted SELECT s.a FROM acc.reg_src s"),
                404, 508);
        problem(register(as(DAVE), STEP_A, null, "INSERT OVERWRITE TABLE acc.planted SELECT s.a FROM acc.reg_src s"),
                404, 508);
        // carol reads team A's processes (group: 4) but may not write them.
        Response readOnly = register(as(CAROL), STEP_A, null,
                "INSERT OVERWRITE TABLE acc.planted SELECT s.a FROM acc.reg_src s");
        problem(readOnly, 403, 14);
        assertThat(readOnly.jsonPath().getString("detail")).contains("process " + STEP_A);
        // A process the registry never announced here is nobody's but an administrator's.
        problem(register(as(ANA), 97999, null, "INSERT OVERWRITE TABLE acc.planted SELECT s.a FROM acc.reg_src s"),
                404, 508);
        problem(as(ANA).get("/lineage/tables/acc.planted"), 404, 507);
        given().get("/lineage/tables/acc.planted").then().statusCode(404);

        register(as(ANA), STEP_A, RUN_A, "INSERT OVERWRITE TABLE acc.ana_out SELECT s.a FROM acc.reg_src s").then()
                .statusCode(201);
        // Another team's query id is taken, and the refusal says nothing of it.
        Response reused = as(ANA).contentType(ContentType.JSON).body(Map.of("queryId", queryB, "queryType", "HIVE",
                "processId", STEP_A, "queryText", "INSERT OVERWRITE TABLE acc.x SELECT s.a FROM acc.reg_src s"))
                .post("/queries");
        problem(reused, 409, 3);
        assertThat(reused.asString()).doesNotContain("b_only").doesNotContain(String.valueOf(STEP_B));
        as(BOB).get("/queries/" + queryB).then().statusCode(200)
                .body("processId", org.hamcrest.Matchers.equalTo((int) STEP_B));
    }

    private static RequestSpecification as(String token) {
        return given().auth().oauth2(token);
    }

    private static Response register(RequestSpecification as, long processId, Long run, String sql) {
        Map<String, Object> body = new java.util.HashMap<>(Map.of("queryType", "HIVE", "processId", processId,
                "queryText", sql));
        if (run != null) {
            body.put("instanceExecId", run);
        }
        return as.contentType(ContentType.JSON).body(body).post("/queries");
    }

    private static void problem(Response r, int status, int code) {
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.jsonPath().getInt("code")).as(r.asString()).isEqualTo(code);
    }
}
