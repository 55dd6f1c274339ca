package io.batchyard.queue.compaction;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;

/** The REST calls of the compaction tests that move the clock and change table settings. */
final class CompactionRest {

    private CompactionRest() {
    }

    static ValidatableResponse put(String path, Object body) {
        return given().contentType(ContentType.JSON).body(body).put(path).then();
    }

    /** Stops the service clock at {@code instant}. */
    static void clockAt(String instant) {
        put("/admin/clock", Map.of("instant", instant)).statusCode(200).body("fixedAt", equalTo(instant))
                .body("moved", equalTo(true));
    }

    /** Back to real time. */
    static void realTime() {
        given().delete("/admin/clock").then().statusCode(200).body("moved", equalTo(false));
    }

    /** A settings body of name/value pairs (values may be null, which {@link Map#of} refuses). */
    static Map<String, Object> settings(Object... pairs) {
        Map<String, Object> body = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            body.put((String) pairs[i], pairs[i + 1]);
        }
        return body;
    }

    static long tableId(CompactionFixture f) {
        return given().get("/compaction/tables?limit=500").then().statusCode(200).extract().jsonPath()
                .getLong("items.find { it.schemaName == '" + f.schema + "' }.tableId");
    }

    static ValidatableResponse registerOverRest(CompactionFixture f, LocalDate date, String key) {
        return given().contentType(ContentType.JSON).body(Map.of("schemaName", f.schema, "tableName", f.table,
                "partitionDate", date.toString(), "objectKey", key)).post("/compaction/objects").then();
    }

    static void problem(ValidatableResponse r, int status, int code) {
        r.statusCode(status).contentType("application/problem+json").body("code", equalTo(code));
    }
}
