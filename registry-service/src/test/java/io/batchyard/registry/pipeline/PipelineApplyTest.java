package io.batchyard.registry.pipeline;

import static io.batchyard.registry.Fixtures.INGESTION;
import static io.batchyard.registry.Fixtures.SFTP;
import static io.batchyard.registry.Fixtures.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.registry.RegistryTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code POST /pipelines/apply}: one transaction per application, refused whole when the live state moved. */
@RegistryTest
class PipelineApplyTest {

    @Test
    void createsAnApplicationWithATreeAndASecondApplyOfTheEmptyPlanChangesNothing() {
        String name = unique("pac");
        Map<String, Object> body = request(name, expectedAbsent(), treeChanges());
        given().contentType(ContentType.JSON).body(body).post("/pipelines/apply").then().statusCode(200)
                .body("created", equalTo(true));

        long appId = applicationId(name);
        JsonPath processes = processesOf(appId);
        assertThat(processes.getList("items.name", String.class)).containsExactlyInAnyOrder("load", "fetch", "store");
        long load = idOf(processes, "load");
        long fetch = idOf(processes, "fetch");
        long store = idOf(processes, "store");
        given().get("/processes/" + load + "/tree").then().statusCode(200)
                .body("parent.nextProcessIds", equalTo(List.of((int) fetch)))
                .body("steps.find { it.name == 'fetch' }.nextProcessIds", equalTo(List.of((int) store)))
                .body("steps.find { it.name == 'store' }.nextProcessIds", equalTo(List.of((int) load)));
        given().get("/processes/" + fetch + "/properties/source").then().statusCode(200).body("value", equalTo("s3"));

        // the plan of an unchanged state is empty: applying it changes no version
        Map<String, Object> again = request(name, expectedLive(name, appId), List.of());
        given().contentType(ContentType.JSON).body(again).post("/pipelines/apply").then().statusCode(200)
                .body("created", equalTo(false)).body("changes", equalTo(0));
        assertThat(processesOf(appId).getList("items.version", Integer.class))
                .isEqualTo(processes.getList("items.version", Integer.class));
    }

    @Test
    void aConflictOnTheThirdObjectLeavesNothingChanged() {
        String name = unique("pac");
        given().contentType(ContentType.JSON).body(request(name, expectedAbsent(), treeChanges()))
                .post("/pipelines/apply").then().statusCode(200);
        long appId = applicationId(name);
        Map<String, Object> seen = expectedLive(name, appId);
        JsonPath before = processesOf(appId);
        long store = idOf(before, "store");

        // someone changes the third process after the plan was computed
        given().contentType(ContentType.JSON).body(Map.of("description", "changed by hand"))
                .patch("/processes/" + store).then().statusCode(200);
        JsonPath changedByHand = processesOf(appId);

        List<Map<String, Object>> changes = List.of(
                update("load", null, "load v2", INGESTION, List.of("fetch")),
                update("load", "fetch", "fetch v2", SFTP, List.of("store")),
                update("load", "store", "store v2", SFTP, List.of("load")));
        given().contentType(ContentType.JSON).body(request(name, seen, changes)).post("/pipelines/apply").then()
                .statusCode(409).contentType(containsString("application/problem+json")).body("code", equalTo(227))
                .body("detail", containsString("process 'load/store' (id " + store + ") changed since the plan"));
        assertThat(processesOf(appId).getList("items.version", Integer.class))
                .isEqualTo(changedByHand.getList("items.version", Integer.class));
        assertThat(processesOf(appId).getList("items.description", String.class)).doesNotContain("load v2", "fetch v2");
    }

    @Test
    void aRefusalOfALaterChangeRollsBackTheEarlierOnes() {
        String name = unique("pac");
        given().contentType(ContentType.JSON).body(request(name, expectedAbsent(), treeChanges()))
                .post("/pipelines/apply").then().statusCode(200);
        long appId = applicationId(name);
        JsonPath before = processesOf(appId);
        List<Map<String, Object>> changes = List.of(
                update("load", null, "load v2", INGESTION, List.of("fetch")),
                update("load", "fetch", "fetch v2", SFTP, List.of("store")),
                update("load", "store", "store v2", SFTP, List.of("nowhere")));
        given().contentType(ContentType.JSON).body(request(name, expectedLive(name, appId), changes))
                .post("/pipelines/apply").then().statusCode(422).body("code", equalTo(201))
                .body("detail", containsString("'load/nowhere'"));
        assertThat(processesOf(appId).getList("items.version", Integer.class))
                .isEqualTo(before.getList("items.version", Integer.class));
        assertThat(processesOf(appId).getList("items.description", String.class)).doesNotContain("load v2", "fetch v2");
    }

    @Test
    void anApplicationCreatedSinceThePlanIsNamed() {
        String name = unique("pac");
        given().contentType(ContentType.JSON).body(Map.of("name", name, "description", "d", "owner", "o"))
                .post("/applications").then().statusCode(201);
        given().contentType(ContentType.JSON).body(request(name, expectedAbsent(), treeChanges()))
                .post("/pipelines/apply").then().statusCode(409).body("code", equalTo(227))
                .body("detail", equalTo("application '" + name + "' was created since the plan"));
        assertThat(processesOf(applicationId(name)).getInt("total")).isZero();
    }

    // ---- requests ----

    private static Map<String, Object> request(String name, Map<String, Object> expected,
                                               List<Map<String, Object>> changes) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("application", Map.of("name", name, "description", "pipelines as code", "owner", "data team"));
        body.put("expected", expected);
        body.put("changes", changes);
        return body;
    }

    private static Map<String, Object> expectedAbsent() {
        return Map.of("applicationExists", false, "processes", List.of());
    }

    /** What a plan of the application's present state has seen. */
    private static Map<String, Object> expectedLive(String name, long appId) {
        JsonPath app = given().get("/applications/" + appId).then().statusCode(200).extract().jsonPath();
        JsonPath processes = processesOf(appId);
        List<Map<String, Object>> seen = new ArrayList<>();
        for (Map<String, Object> p : processes.<Map<String, Object>>getList("items")) {
            Map<String, Object> s = new LinkedHashMap<>();
            if (p.get("parentProcessId") == null) {
                s.put("parent", p.get("name"));
            } else {
                long parentId = ((Number) p.get("parentProcessId")).longValue();
                s.put("parent", processes.getList("items").stream().map(o -> (Map<?, ?>) o)
                        .filter(o -> ((Number) o.get("id")).longValue() == parentId).findFirst().orElseThrow()
                        .get("name"));
                s.put("step", p.get("name"));
            }
            s.put("version", p.get("version"));
            seen.add(s);
        }
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("applicationExists", true);
        expected.put("description", app.getString("description"));
        expected.put("owner", app.getString("owner"));
        expected.put("processes", seen);
        assertThat(app.getString("name")).isEqualTo(name);
        return expected;
    }

    private static List<Map<String, Object>> treeChanges() {
        List<Map<String, Object>> changes = new ArrayList<>();
        changes.add(create("load", null, INGESTION, 1));
        changes.add(create("load", "fetch", SFTP, 0));
        changes.add(create("load", "store", SFTP, 0));
        changes.add(update("load", null, "load", INGESTION, List.of("fetch")));
        changes.add(update("load", "fetch", "fetch", SFTP, List.of("store")));
        changes.add(update("load", "store", "store", SFTP, List.of("load")));
        changes.add(Map.of("kind", "PUT_PROPERTY", "parent", "load", "step", "fetch",
                "property", Map.of("configGroup", "param", "key", "source", "value", "s3")));
        return changes;
    }

    private static Map<String, Object> create(String parent, String step, int type, int workflowType) {
        Map<String, Object> change = new LinkedHashMap<>();
        change.put("kind", "CREATE_PROCESS");
        change.put("parent", parent);
        change.put("step", step);
        change.put("process", Map.of("description", step == null ? parent : step, "processTypeId", type,
                "workflowTypeId", workflowType, "canRecover", true));
        return change;
    }

    private static Map<String, Object> update(String parent, String step, String description, int type,
                                              List<String> next) {
        Map<String, Object> change = new LinkedHashMap<>();
        change.put("kind", "UPDATE_PROCESS");
        change.put("parent", parent);
        change.put("step", step);
        change.put("process", Map.of("description", description, "processTypeId", type,
                "workflowTypeId", step == null ? 1 : 0, "canRecover", true, "next", next, "enqueuing", List.of()));
        return change;
    }

    private static long applicationId(String name) {
        return given().queryParam("name", name).get("/applications").then().statusCode(200).extract().jsonPath()
                .getLong("items.find { it.name == '" + name + "' }.id");
    }

    private static JsonPath processesOf(long appId) {
        return given().queryParam("applicationId", appId).queryParam("limit", 500).get("/processes").then()
                .statusCode(200).extract().jsonPath();
    }

    private static long idOf(JsonPath processes, String name) {
        return processes.getLong("items.find { it.name == '" + name + "' }.id");
    }
}
