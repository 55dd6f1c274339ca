package io.batchyard.execution.backfill;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.execution.ExecutionFixtures;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.StubImpact;
import io.batchyard.persistence.Blocking;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /backfills} against the real database: newest first, a state filter, pages whose total agrees with the
 * rows a caller may see, a backfill hidden from a viewer who may not read one of its plan's processes, and the
 * entries counted per level, the plan's as pending before the backfill runs and as {@code GET /backfills/{id}} counts
 * them once it ran. Other tests' backfills share the database: counts are taken relative to what was there before.
 */
@ExecutionTest
class BackfillListTest {

    private static final String ADMIN = Identity.get().token("ada", Set.of("admin"), Set.of());
    /** A viewer in no group: the open application gives others read, the closed one nothing. */
    private static final String VIC = Identity.get().token("vic", Set.of("viewer"), Set.of());

    /** Stepped by the test: its schedule is off in tests. */
    @Inject
    BackfillDriver driver;

    @Test
    void backfillsAreListedNewestFirstByStateInPagesOfWhatTheCallerMayReadWithTheirLevels() throws IOException {
        long open = ExecutionFixtures.id(), closed = ExecutionFixtures.id();
        long a = ExecutionFixtures.id(), b = ExecutionFixtures.id(), a2 = ExecutionFixtures.id(),
                hidden = ExecutionFixtures.id();
        try (ExecutionFixtures f = new ExecutionFixtures(setting("kafka.bootstrap.servers"))) {
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + open,
                    ProcessTrees.application(open, "olga", "ops", 7, 7, 4));
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + closed,
                    ProcessTrees.application(closed, "olga", "ops", 7, 7, 0));
            for (long p : List.of(a, b)) {
                long s = ExecutionFixtures.id();
                String run = script(p);
                f.register(ProcessTrees.parent(p).application(open).workflowType(2).next(s)
                        .step(s, st -> st.property("script", "run", run).next(p)));
            }
            f.register(ProcessTrees.parent(a2).application(open).workflowType(2).next(ExecutionFixtures.id()));
            f.register(ProcessTrees.parent(hidden).application(closed).workflowType(2).next(ExecutionFixtures.id()));
        }
        await().atMost(ExecutionFixtures.WAIT).untilAsserted(() -> given().auth().oauth2(VIC)
                .get("/process-definitions/" + b).then().statusCode(200));
        for (long p : List.of(a, b, a2, hidden)) {
            given().auth().oauth2(ADMIN).contentType(ContentType.JSON).body(Map.of())
                    .put("/runner/processes/" + p).then().statusCode(200);
        }
        // queue-service's walk: A's run consumed batch 5 and B consumed A's output (two levels); from A2, the output
        // reached a process of the closed application
        StubImpact.answer(a, chain("1a", a, b));
        StubImpact.answer(a2, chain("2b", a2, hidden));

        long adminBefore = page(ADMIN, Map.of()).getLong("total");
        long vicBefore = page(VIC, Map.of()).getLong("total");
        String paused = start(a);
        String invisible = start(a2);
        String queued = start(a);
        given().auth().oauth2(ADMIN).post("/backfills/" + paused + "/pause").then().statusCode(200);

        // newest first, the admin sees all three
        JsonPath all = page(ADMIN, Map.of("limit", 3));
        assertThat(all.getList("items.backfill.backfillId", String.class)).containsExactly(queued, invisible, paused);
        assertThat(all.getLong("total")).isEqualTo(adminBefore + 3);
        assertThat(all.getList("items.backfill.createdBy", String.class)).containsOnly("ada");
        // a page further on, with the same total
        JsonPath second = page(ADMIN, Map.of("limit", 1, "offset", 1));
        assertThat(second.getList("items.backfill.backfillId", String.class)).containsExactly(invisible);
        assertThat(second.getLong("total")).isEqualTo(adminBefore + 3);
        assertThat(second.getInt("limit")).isEqualTo(1);
        assertThat(second.getInt("offset")).isEqualTo(1);

        // vic may not read the closed application's process: that backfill is neither listed nor counted
        JsonPath vics = page(VIC, Map.of("limit", 2));
        assertThat(vics.getList("items.backfill.backfillId", String.class)).containsExactly(queued, paused);
        assertThat(vics.getLong("total")).isEqualTo(vicBefore + 2);
        assertThat(page(VIC, Map.of("limit", 500)).getList("items.backfill.backfillId", String.class))
                .doesNotContain(invisible);
        JsonPath vicsSecond = page(VIC, Map.of("limit", 1, "offset", 1));
        assertThat(vicsSecond.getList("items.backfill.backfillId", String.class)).containsExactly(paused);

        // one state, named in any case
        JsonPath pausedOnly = page(VIC, Map.of("state", "paused", "limit", 500));
        assertThat(pausedOnly.getList("items.backfill.backfillId", String.class)).contains(paused)
                .doesNotContain(queued);
        assertThat(pausedOnly.getList("items.backfill.state", String.class)).containsOnly("PAUSED");
        assertThat(pausedOnly.getLong("total")).isEqualTo(pausedOnly.getList("items").size());

        // not run yet: the plan's entries are pending, per level
        String q = item(queued);
        assertThat(all.getList(q + "rootProcessIds", Long.class)).containsExactly(a);
        assertThat(all.getInt(q + "progress.entries")).isEqualTo(2);
        assertThat(all.getInt(q + "progress.pending")).isEqualTo(2);
        assertThat(all.getList(q + "progress.levels.level", Integer.class)).containsExactly(0, 1);
        assertThat(all.getList(q + "progress.levels.entries", Integer.class)).containsExactly(1, 1);
        assertThat(all.getList(q + "progress.levels.pending", Integer.class)).containsExactly(1, 1);

        // the others out of the way (the driver steps every live backfill), one that runs to its end counts as
        // GET /backfills/{id} does
        for (String id : List.of(paused, invisible, queued)) {
            given().auth().oauth2(ADMIN).post("/backfills/" + id + "/cancel").then().statusCode(200);
        }
        assertThat(page(ADMIN, Map.of("state", "CANCELLED", "limit", 3)).getList("items.backfill.backfillId",
                String.class)).containsExactly(queued, invisible, paused);
        String ran = start(a);
        JsonPath done = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300)).until(() -> {
            Blocking.await(() -> driver.tick());
            return given().auth().oauth2(ADMIN).get("/backfills/" + ran).then().statusCode(200).extract().jsonPath();
        }, j -> "SUCCEEDED".equals(j.getString("backfill.state")));
        JsonPath listed = page(VIC, Map.of("state", "SUCCEEDED", "limit", 1));
        String r = item(ran);
        assertThat(listed.getList(r + "progress.levels")).isEqualTo(done.getList("progress.levels"));
        assertThat(listed.getList(r + "progress.levels.succeeded", Integer.class)).containsExactly(1, 1);
        assertThat(listed.getInt(r + "progress.succeeded")).isEqualTo(done.getInt("progress.succeeded"));
    }

    @Test
    void anUnknownStateOrABadPageIsRefused() {
        given().auth().oauth2(VIC).queryParam("state", "sometimes").get("/backfills").then().statusCode(400)
                .contentType("application/problem+json").body("code", equalTo(460));
        given().auth().oauth2(VIC).queryParam("limit", 0).get("/backfills").then().statusCode(400);
        given().auth().oauth2(VIC).queryParam("offset", -1).get("/backfills").then().statusCode(400);
        given().auth().oauth2(VIC).queryParam("state", "").get("/backfills").then().statusCode(200);
    }

    /** A root's run that consumed batch 5, and one consumer of its output. */
    private static String chain(String fingerprint, long root, long consumer) {
        return """
                {"fingerprint": "%s", "rowsRead": 2, "units": [
                  {"processId": %d, "runId": 8801, "targetBatchId": 8901, "status": "COMPLETED", "marking": "20260401",
                   "root": true, "inputBatchIds": [5], "causes": []},
                  {"processId": %d, "runId": 8802, "targetBatchId": 8902, "status": "COMPLETED", "marking": "20260401",
                   "root": false, "inputBatchIds": [8901], "causes": [{"processId": %d, "runId": 8801, "batchId": 8901}]}
                ]}""".formatted(fingerprint.repeat(32), root, consumer, root);
    }

    /** A backfill of a fresh plan from {@code root} (its batch 5), started by the admin. */
    private static String start(long root) {
        String planId = given().auth().oauth2(ADMIN).contentType(ContentType.JSON)
                .body(Map.of("roots", List.of(Map.of("processId", root)), "batchIds", List.of(5)))
                .post("/backfills/preview").then().statusCode(201).extract().jsonPath().getString("planId");
        return given().auth().oauth2(ADMIN).contentType(ContentType.JSON).body(Map.of("planId", planId))
                .post("/backfills").then().statusCode(202).extract().jsonPath().getString("backfill.backfillId");
    }

    private static JsonPath page(String token, Map<String, ?> query) {
        return given().auth().oauth2(token).queryParams(query).get("/backfills").then().statusCode(200).extract()
                .jsonPath();
    }

    private static String setting(String name) {
        return ConfigProvider.getConfig().getValue(name, String.class);
    }

    /** The path of one backfill among a page's items. */
    private static String item(String backfillId) {
        return "items.find { it.backfill.backfillId == '" + backfillId + "' }.";
    }

    /** An executable script that succeeds, in the runner's script directory; answers its name. */
    private static String script(long pid) throws IOException {
        Path p = Files.createDirectories(Path.of(setting("batchyard.runner.script-dir")).toAbsolutePath()).resolve("backfill-list-" + pid + ".sh");
        Files.writeString(p, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p.getFileName().toString();
    }
}
