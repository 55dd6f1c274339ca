package io.batchyard.registry;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** REST helpers that build registry fixtures through the public API, with names unique per test run. */
public final class Fixtures {

    /** Process types from the seed: 1 ingestion (parent) with step type 12 SFTP; 2 Semantic with 9 Hive, 22 Shell. */
    public static final int INGESTION = 1;
    public static final int SFTP = 12;
    public static final int SEMANTIC = 2;
    public static final int HIVE = 9;
    public static final int SHELL = 22;

    private static final AtomicInteger SEQ = new AtomicInteger();

    private Fixtures() {
    }

    public static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8) + "-" + SEQ.incrementAndGet();
    }

    public static long application() {
        return given().contentType(ContentType.JSON)
                .body(Map.of("name", unique("app"), "description", "test application", "owner", "tester"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
    }

    public static ValidatableResponse postProcess(Map<String, Object> body) {
        return given().contentType(ContentType.JSON).body(body).post("/processes").then();
    }

    public static Map<String, Object> parentBody(long applicationId, int type) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", unique("job"));
        body.put("description", "a parent process");
        body.put("applicationId", applicationId);
        body.put("processTypeId", type);
        return body;
    }

    public static Map<String, Object> stepBody(long applicationId, long parentId, int type) {
        Map<String, Object> body = parentBody(applicationId, type);
        body.put("name", unique("step"));
        body.put("description", "a step");
        body.put("parentProcessId", parentId);
        return body;
    }

    public static long parent(long applicationId, int type) {
        return postProcess(parentBody(applicationId, type)).statusCode(201).extract().jsonPath().getLong("id");
    }

    public static long step(long applicationId, long parentId, int type) {
        return postProcess(stepBody(applicationId, parentId, type)).statusCode(201).extract().jsonPath().getLong("id");
    }

    public static long step(long applicationId, long parentId, int type, List<Long> enqueuers, String cutPattern) {
        Map<String, Object> body = stepBody(applicationId, parentId, type);
        body.put("enqueuingProcessIds", enqueuers);
        body.put("batchCutPattern", cutPattern);
        return postProcess(body).statusCode(201).extract().jsonPath().getLong("id");
    }

    public static ValidatableResponse patch(long processId, Map<String, Object> body) {
        return given().contentType(ContentType.JSON).body(body).patch("/processes/" + processId).then();
    }

    public static void link(long processId, Long... next) {
        patch(processId, Map.of("nextProcessIds", List.of(next))).statusCode(200);
    }
}
