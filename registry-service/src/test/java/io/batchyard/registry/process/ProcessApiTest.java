package io.batchyard.registry.process;

import static io.batchyard.registry.Fixtures.HIVE;
import static io.batchyard.registry.Fixtures.INGESTION;
import static io.batchyard.registry.Fixtures.SEMANTIC;
import static io.batchyard.registry.Fixtures.SFTP;
import static io.batchyard.registry.Fixtures.application;
import static io.batchyard.registry.Fixtures.link;
import static io.batchyard.registry.Fixtures.parent;
import static io.batchyard.registry.Fixtures.parentBody;
import static io.batchyard.registry.Fixtures.patch;
import static io.batchyard.registry.Fixtures.postProcess;
import static io.batchyard.registry.Fixtures.step;
import static io.batchyard.registry.Fixtures.stepBody;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.startsWith;

import io.batchyard.api.ChosenIds;
import io.batchyard.events.ProcessDefinition;
import io.batchyard.events.registry.ProcessChanged;
import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.registry.RegistryTest;
import io.batchyard.teststack.BatchyardTestStack;
import io.restassured.http.ContentType;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@RegistryTest
class ProcessApiTest extends ProcessEventsTestSupport {

    @Test
    void registersAChainAndPublishesTheWholeTreeKeyedByTheParent() {
        long job = parent(app, INGESTION);
        var registered = events.await(ProcessRegistered.class, e -> e.getParentProcessId() == job, WAIT);
        assertThat(registered.key()).isEqualTo(String.valueOf(job));
        assertThat(registered.event().getParent().getProcessName()).startsWith("job-");
        assertThat(registered.event().getSteps()).isEmpty();

        long s1 = step(app, job, SFTP);
        long s2 = step(app, job, SFTP);
        link(job, s1);
        link(s1, s2);
        link(s2, job);

        given().get("/processes/" + job + "/tree").then().statusCode(200)
                .body("parent.id", equalTo((int) job))
                .body("parent.nextProcessIds", equalTo(List.of((int) s1)))
                .body("steps.id", equalTo(List.of((int) s1, (int) s2)))
                .body("steps[1].nextProcessIds", equalTo(List.of((int) job)))
                .body("steps.workflowTypeId", everyItem(equalTo(0)))
                .body("parent.workflowTypeId", equalTo(1));

        var last = events.await(ProcessChanged.class,
                e -> e.getParentProcessId() == job && e.getChangedProcessIds().contains(s2), WAIT);
        assertThat(last.key()).isEqualTo(String.valueOf(job));
        assertThat(last.event().getParent().getNextProcessIds()).containsExactly(s1);
        assertThat(last.event().getSteps()).extracting(ProcessDefinition::getProcessId).containsExactly(s1, s2);
        assertThat(last.event().getSteps().get(1).getNextProcessIds()).containsExactly(job);
        // step creation is announced too, under the parent's key
        assertThat(events.await(ProcessRegistered.class,
                e -> e.getParentProcessId() == job && e.getChangedProcessIds().contains(s1), WAIT).key())
                .isEqualTo(String.valueOf(job));
    }

    @Test
    void aStepConsumesSeveralUpstreamJobsWithACutPattern() {
        long upstreamA = parent(app, INGESTION);
        long upstreamB = parent(app, INGESTION);
        long job = parent(app, INGESTION);
        long consumer = step(app, job, SFTP, List.of(upstreamA, upstreamB), " EOD ");
        given().get("/processes/" + consumer).then().statusCode(200)
                .body("enqueuingProcessIds", equalTo(List.of((int) upstreamA, (int) upstreamB)))
                .body("batchCutPattern", equalTo("EOD"));
        var event = events.await(ProcessRegistered.class,
                e -> e.getParentProcessId() == job && e.getChangedProcessIds().contains(consumer), WAIT);
        assertThat(event.event().getSteps().get(0).getEnqueuingProcessIds()).containsExactly(upstreamA, upstreamB);
        assertThat(event.event().getSteps().get(0).getBatchCutPattern()).isEqualTo("EOD");

        // clearing the pattern with an explicit null, keeping it when absent
        patch(consumer, Map.of("canRecover", false)).statusCode(200).body("batchCutPattern", equalTo("EOD"));
        java.util.HashMap<String, Object> clear = new java.util.HashMap<>();
        clear.put("batchCutPattern", null);
        patch(consumer, clear).statusCode(200).body("batchCutPattern", equalTo(null)).body("canRecover", equalTo(false));
    }

    @Test
    void rejectsInvalidTreesWithTheirCodesAndWritesNothing() throws SQLException {
        long job = parent(app, INGESTION);
        long s1 = step(app, job, SFTP);
        long otherJob = parent(app, INGESTION);
        long otherStep = step(app, otherJob, SFTP);
        long before = outboxRows();
        long processesBefore = processRows();

        expectProblem(postProcess(parentBody(app, SFTP)), 422, 202, "not applicable for parent processes");
        expectProblem(postProcess(stepBody(app, job, SEMANTIC)), 422, 203, "not applicable for sub processes");
        expectProblem(postProcess(stepBody(app, job, HIVE)), 422, 204, "should have a parent with process type=2");
        expectProblem(postProcess(stepBody(app, s1, SFTP)), 422, 205, "does not exist, is deleted, or is itself a sub-process");
        Map<String, Object> enqueuedByStep = stepBody(app, job, SFTP);
        enqueuedByStep.put("enqueuingProcessIds", List.of(otherStep));
        expectProblem(postProcess(enqueuedByStep), 422, 206, "must be a parent process");
        Map<String, Object> parentWithEnqueuer = parentBody(app, INGESTION);
        parentWithEnqueuer.put("enqueuingProcessIds", List.of(otherJob));
        expectProblem(postProcess(parentWithEnqueuer), 422, 209, "sub-processes only");
        Map<String, Object> unknownApp = parentBody(987654321L, INGESTION);
        expectProblem(postProcess(unknownApp), 422, 201, "application 987654321 does not exist");
        expectProblem(patch(s1, Map.of("nextProcessIds", List.of(otherStep))), 422, 207, "not a sub-process of parent");
        expectProblem(patch(s1, Map.of("nextProcessIds", List.of(s1))), 422, 208, "its own next process");

        assertThat(outboxRows()).as("rejected requests publish nothing").isEqualTo(before);
        assertThat(processRows()).as("rejected requests insert nothing").isEqualTo(processesBefore);
    }

    @Test
    void rejectsLoopsAmongStepsAndBetweenJobs() {
        long job = parent(app, INGESTION);
        long s1 = step(app, job, SFTP);
        long s2 = step(app, job, SFTP);
        link(s1, s2);
        expectProblem(patch(s2, Map.of("nextProcessIds", List.of(s1))), 422, 208, s1 + " -> " + s2 + " -> " + s1);

        long downstream = parent(app, INGESTION);
        step(app, downstream, SFTP, List.of(job), null);
        Map<String, Object> loopBack = stepBody(app, job, SFTP);
        loopBack.put("enqueuingProcessIds", List.of(downstream));
        expectProblem(postProcess(loopBack), 422, 208, "consume its own output");
    }

    @Test
    void badRequestsGetProblemJsonNever500() {
        given().contentType(ContentType.JSON).body("{\"name\": ").post("/processes").then()
                .statusCode(400).contentType("application/problem+json").body("code", equalTo(1));
        given().contentType(ContentType.JSON).body(Map.of("description", "x")).post("/processes").then()
                .statusCode(400).contentType("application/problem+json")
                .body("code", equalTo(1))
                .body("errors.field", hasItem("name"))
                .body("errors.field", hasItem("applicationId"));
        given().contentType(ContentType.JSON).body(Map.of("name", "x".repeat(46), "description", "d",
                        "applicationId", app, "processTypeId", INGESTION)).post("/processes").then()
                .statusCode(400).body("errors.field", hasItem("name"));
        given().get("/processes/999999999").then().statusCode(404).contentType("application/problem+json")
                .body("code", equalTo(2)).body("detail", containsString("999999999"));
        given().get("/processes/not-a-number").then().statusCode(400).body("code", equalTo(1));
        given().get("/processes/1.5").then().statusCode(400).body("code", equalTo(1));
        given().get("/processes/1;x").then().statusCode(400).body("code", equalTo(1));
        given().queryParam("includeDeleted", "yes").get("/processes").then().statusCode(400).body("code", equalTo(1));
        given().queryParam("includeDeleted", "TRUE").get("/processes").then().statusCode(200);
        given().queryParam("limit", 0).get("/processes").then().statusCode(400).body("code", equalTo(1));
        given().queryParam("limit", 501).get("/processes").then().statusCode(400);
    }

    @Test
    void optimisticLockingRefusesAStaleVersion() {
        long job = parent(app, INGESTION);
        int version = given().get("/processes/" + job).then().extract().jsonPath().getInt("version");
        patch(job, Map.of("description", "first", "version", version)).statusCode(200)
                .body("version", equalTo(version + 1));
        expectProblem(patch(job, Map.of("description", "second", "version", version)), 409, 212, "version");
        given().get("/processes/" + job).then().body("description", equalTo("first"));
    }

    @Test
    void aParentNeverChangesAndAChangeIsRefusedNotIgnored() throws SQLException {
        long job = parent(app, INGESTION);
        long other = parent(app, INGESTION);
        long s1 = step(app, job, SFTP);
        long outbox = outboxRows();
        expectProblem(patch(s1, Map.of("parentProcessId", other, "description", "moved")), 422, 205,
                "parent never changes");
        expectProblem(patch(job, Map.of("parentProcessId", other)), 422, 205, "is a parent process");
        given().get("/processes/" + s1).then().statusCode(200).body("parentProcessId", equalTo((int) job))
                .body("description", org.hamcrest.Matchers.not(equalTo("moved")));
        assertThat(outboxRows()).as("a refused patch announces nothing").isEqualTo(outbox);
        // naming the parent it already has is no change and is accepted
        patch(s1, Map.of("parentProcessId", job, "description", "same parent")).statusCode(200)
                .body("parentProcessId", equalTo((int) job)).body("description", equalTo("same parent"));
    }

    @Test
    void deletingIsRefusedWhileReferencedAndCascadesFromTheParent() {
        long job = parent(app, INGESTION);
        long s1 = step(app, job, SFTP);
        long s2 = step(app, job, SFTP);
        link(job, s1);
        link(s1, s2);
        expectProblem(given().delete("/processes/" + s2).then(), 409, 211, "by process(es) " + s1);

        long downstream = parent(app, INGESTION);
        long consumer = step(app, downstream, SFTP, List.of(job), null);
        expectProblem(given().delete("/processes/" + job).then(), 409, 211, String.valueOf(consumer));
        given().delete("/processes/" + downstream).then().statusCode(204);
        var deleted = events.await(ProcessDeleted.class, e -> e.getParentProcessId() == downstream, WAIT);
        assertThat(deleted.event().getDeletedProcessIds()).containsExactlyInAnyOrder(downstream, consumer);

        given().delete("/processes/" + job).then().statusCode(204);
        given().delete("/processes/" + job).then().statusCode(204); // idempotent
        given().get("/processes/" + s2).then().statusCode(200).body("deleted", equalTo(true));
        assertThat(events.all(ProcessDeleted.class, e -> e.getParentProcessId() == job, Duration.ofSeconds(1)))
                .hasSize(1);
        expectProblem(patch(s1, Map.of("description", "x")), 409, 213, "deleted");
    }

    @Test
    void explicitIdsAreAcceptedOnceAndDoNotCollideWithGeneratedOnes() {
        long explicit = 7_000_000 + (System.nanoTime() % 1_000_000);
        Map<String, Object> body = parentBody(app, INGESTION);
        body.put("id", explicit);
        postProcess(body).statusCode(201).body("id", equalTo((int) explicit));
        expectProblem(postProcess(body), 409, 210, "already exists");
        long generated = parent(app, INGESTION);
        assertThat(generated).isGreaterThan(explicit);
    }

    @Test
    void aChosenIdOfTheGeneratorsRangeIsRefusedAndGeneratedIdsKeepComing() throws SQLException {
        long before = outboxRows();
        long processesBefore = processRows();
        for (long id : List.of(Long.MAX_VALUE, 5_000_000_000_000L, ChosenIds.FIRST_GENERATED_ID)) {
            Map<String, Object> body = parentBody(app, INGESTION);
            body.put("id", id);
            expectProblem(postProcess(body), 400, 217, String.valueOf(id));
        }
        given().get("/processes/" + Long.MAX_VALUE).then().statusCode(404);
        assertThat(outboxRows()).as("a refused registration announces nothing").isEqualTo(before);
        assertThat(processRows()).as("a refused registration inserts nothing").isEqualTo(processesBefore);
        long generated = parent(app, INGESTION);
        long next = parent(app, INGESTION);
        assertThat(generated).isGreaterThanOrEqualTo(ChosenIds.FIRST_GENERATED_ID);
        assertThat(next).isGreaterThan(generated);
        long lastValue = count("SELECT last_value FROM pg_sequences WHERE sequencename = 'process_process_id_seq'");
        assertThat(lastValue).as("the generator was not moved towards its maximum").isLessThan(1L << 40);
        // a step under a generated parent, and a chosen id of the client range, still work
        step(app, generated, SFTP);
        long chosen = 8_000_000 + (System.nanoTime() % 1_000_000);
        Map<String, Object> body = parentBody(app, INGESTION);
        body.put("id", chosen);
        postProcess(body).statusCode(201).body("id", equalTo((int) chosen));
        assertThat(parent(app, INGESTION)).isGreaterThan(next);
    }

    /** A database whose generator an earlier huge id exhausted is repaired by the migration that splits the ranges. */
    @Test
    void theRangeMigrationRepairsAnExhaustedGenerator() throws Exception {
        long before = parent(app, INGESTION);
        String migration;
        try (var in = getClass().getClassLoader().getResourceAsStream("db/migration/V3__process_id_ranges.sql")) {
            migration = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        try (Connection c = connect(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("SELECT setval(pg_get_serial_sequence('process', 'process_id'), 9223372036854775807)");
            st.execute(migration);
            c.commit();
        }
        assertThat(parent(app, INGESTION)).isGreaterThan(before).isLessThan(before + 1_000);
    }

    @Test
    void listsAreFilteredAndPaged() {
        long otherApp = application();
        long j1 = parent(otherApp, INGESTION);
        long j2 = parent(otherApp, INGESTION);
        long s = step(otherApp, j1, SFTP);
        given().queryParam("applicationId", otherApp).get("/processes").then().statusCode(200)
                .body("total", equalTo(3)).body("items.id", equalTo(List.of((int) j1, (int) j2, (int) s)));
        given().queryParam("applicationId", otherApp).queryParam("parentsOnly", true).get("/processes").then()
                .body("total", equalTo(2));
        given().queryParam("applicationId", otherApp).queryParam("limit", 1).queryParam("offset", 1)
                .get("/processes").then()
                .body("items", hasSize(1)).body("items[0].id", equalTo((int) j2))
                .body("total", equalTo(3)).body("limit", equalTo(1)).body("offset", equalTo(1));
        given().queryParam("parentProcessId", j1).get("/processes").then().body("items.id", equalTo(List.of((int) s)));
        given().queryParam("name", "job-").queryParam("applicationId", otherApp).get("/processes").then()
                .body("items.name", everyItem(startsWith("job-")));
        given().queryParam("name", "%").queryParam("applicationId", otherApp).get("/processes").then()
                .body("total", equalTo(0));
    }

    @Test
    void masterDataIsSeeded() {
        given().get("/process-types").then().statusCode(200)
                .body("find { it.id == 12 }.name", equalTo("SFTP"))
                .body("find { it.id == 12 }.parentTypeId", equalTo(1))
                .body("find { it.id == 1 }.parentTypeId", equalTo(null));
        given().get("/workflow-types").then().body("name", equalTo(List.of("for steps only", "oozie", "stand alone", "airflow")));
        given().get("/exec-states").then().body("find { it.id == 6 }.name", equalTo("FAILED"));
        given().get("/batch-states").then().body("name", equalTo(List.of("New", "Processed", "Accessed")));
    }

    private static void expectProblem(io.restassured.response.ValidatableResponse response, int status, int code,
                                      String detail) {
        response.statusCode(status).contentType("application/problem+json")
                .body("code", equalTo(code)).body("status", equalTo(status)).body("detail", containsString(detail));
    }

    private long outboxRows() throws SQLException {
        return count("SELECT count(*) FROM outbox_event");
    }

    private long processRows() throws SQLException {
        return count("SELECT count(*) FROM process");
    }

    private static long count(String sql) throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Connection connect() throws SQLException {
        var db = BatchyardTestStack.database();
        return db.connect();
    }
}
