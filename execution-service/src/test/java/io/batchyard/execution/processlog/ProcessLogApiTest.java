package io.batchyard.execution.processlog;

import static io.batchyard.execution.ExecutionFixtures.WAIT;
import static io.batchyard.execution.ExecutionFixtures.id;
import static io.batchyard.execution.ExecutionFixtures.register;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.batchyard.execution.ExecutionFixtures;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/** The process log over REST: AddProcessLog, the listing, getLastValue and listLastInstanceRef, and every refusal. */
@ExecutionTest
class ProcessLogApiTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void anIncrementalImportKeepsItsLastValueAndFindsItAgain() {
        long p = id(), s1 = id();
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p)));

        var created = add(s1, entry("import", "last-id", "100", 7L, null)).statusCode(201).extract();
        JsonPath first = created.jsonPath();
        long firstId = first.getLong("logId");
        assertThat(created.header("Location")).endsWith("/processes/" + s1 + "/log/" + firstId);
        assertThat(first.getLong("processId")).isEqualTo(s1);
        assertThat(first.getString("addTs")).isNotBlank();
        var second = add(s1, entry("import", "last-id", "250", 8L, "2026-01-02T03:04:05Z")).statusCode(201).extract();
        long secondId = second.jsonPath().getLong("logId");
        assertThat(secondId).isGreaterThan(firstId);
        assertThat(second.header("Location")).endsWith("/processes/" + s1 + "/log/" + secondId);
        JsonPath read = given().get(second.header("Location")).then().statusCode(200).body("message", equalTo("250"))
                .body("instanceRef", equalTo(8)).extract().jsonPath();
        assertThat(OffsetDateTime.parse(read.getString("addTs")).toInstant()).isEqualTo("2026-01-02T03:04:05Z");
        add(s1, entry("dq", "last-id", "x", 8L, null)).statusCode(201);
        add(s1, entry("import", "rows", "12", 8L, null)).statusCode(201);
        add(s1, entry("import", "rows", "13", 8L, null)).statusCode(201);
        // a parent may log too, and its entries stay apart from its steps'
        add(p, entry("import", "last-id", "parent's", null, null)).statusCode(201).body("instanceRef", nullValue());

        // getLastValue: the newest entry of the message in its category, by log id (not by addTs)
        given().queryParam("messageId", "last-id").queryParam("category", "import").get(log(s1) + "/last").then()
                .statusCode(200).body("message", equalTo("250")).body("logId", equalTo((int) secondId));
        given().queryParam("messageId", "last-id").queryParam("category", "dq").get(log(s1) + "/last").then()
                .statusCode(200).body("message", equalTo("x"));
        expect(given().queryParam("messageId", "nothing").queryParam("category", "import").get(log(s1) + "/last")
                .then(), 404, 414);
        expect(given().queryParam("messageId", "last-id").get(log(s1) + "/last").then(), 400, 1);

        // listLastInstanceRef: every entry of the message with its highest instance ref
        JsonPath last = given().queryParam("messageId", "last-id").get(log(s1) + "/last-instance").then()
                .statusCode(200).extract().jsonPath();
        assertThat(last.getList("message", String.class)).containsExactly("x", "250");
        assertThat(last.getList("instanceRef", Long.class)).containsOnly(8L);
        given().queryParam("messageId", "unknown").get(log(s1) + "/last-instance").then().statusCode(200)
                .body("size()", equalTo(0));
        given().queryParam("messageId", "last-id").get(log(p) + "/last-instance").then().statusCode(200)
                .body("size()", equalTo(0));

        // the listing: newest first, filtered, paged like every list
        given().get(log(s1)).then().statusCode(200).body("total", equalTo(5))
                .body("items.message", equalTo(List.of("13", "12", "x", "250", "100")));
        given().queryParam("category", "import").queryParam("messageId", "last-id").get(log(s1)).then()
                .body("items.message", equalTo(List.of("250", "100")));
        given().queryParam("instanceRef", 7).get(log(s1)).then().body("items.message", equalTo(List.of("100")));
        given().queryParam("limit", 2).queryParam("offset", 1).get(log(s1)).then().body("total", equalTo(5))
                .body("limit", equalTo(2)).body("offset", equalTo(1)).body("items.message", equalTo(List.of("12", "x")));
        given().get(log(p)).then().body("total", equalTo(1));
        expect(given().get(log(p) + "/" + secondId).then(), 404, 414);
    }

    @Test
    void entriesThatDoNotFitAreRefusedWithCode1AndNothingIsStored() {
        long p = id(), s1 = id();
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p)));

        expect(add(s1, entry("c".repeat(2049), "m", "v", null, null)), 400, 1);
        expect(add(s1, entry("c", "m".repeat(129), "v", null, null)), 400, 1);
        expect(add(s1, entry("c", "m", "v".repeat(1025), null, null)), 400, 1);
        expect(add(s1, entry("", "m", "v", null, null)), 400, 1);
        expect(add(s1, entry("c", " ", "v", null, null)), 400, 1);
        expect(add(s1, entry("c", "m", null, null, null)), 400, 1);
        expect(add(s1, entry("c", "m", "v", null, "+10000-01-01T00:00:00Z")), 400, 1);
        expect(add(s1, entry("c", "m", "v", null, "yesterday")), 400, 1);
        for (String bad : List.of("", "[]", "{\"category\":\"c\",\"messageId\":\"m\",\"message\":\"v\",\"instanceRef\":1.5}",
                "{\"category\":\"c\",\"messageId\":\"m\",\"message\":\"a\\u0000b\"}")) {
            expect(given().contentType(ContentType.JSON).body(bad).post(log(s1)).then(), 400, 1);
        }
        expect(given().queryParam("instanceRef", "abc").get(log(s1)).then(), 400, 1);
        given().get(log(s1)).then().body("total", equalTo(0));

        // exactly at the limits, in characters (not bytes), an entry is stored whole; an empty message is a value too
        String category = "ü".repeat(2048), messageId = "€".repeat(128), message = "ß".repeat(1024);
        add(s1, entry(category, messageId, message, null, null)).statusCode(201);
        given().get(log(s1)).then().statusCode(200).body("total", equalTo(1)).body("items[0].category", equalTo(category))
                .body("items[0].messageId", equalTo(messageId)).body("items[0].message", equalTo(message));
        add(s1, entry("c", "m", "", null, null)).statusCode(201).body("message", equalTo(""));
    }

    @Test
    void theProcessMustBeKnownAndALiveOneToLog() {
        long p = id(), s1 = id(), gone = id();
        register(bootstrap, ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p))
                .step(gone, s -> s.next(p).deleted()));

        long unknown = 987_654_321L;
        expect(add(unknown, entry("c", "m", "v", null, null)), 404, 412);
        expect(given().get(log(unknown)).then(), 404, 412);
        expect(given().queryParam("messageId", "m").queryParam("category", "c").get(log(unknown) + "/last").then(),
                404, 412);
        expect(given().queryParam("messageId", "m").get(log(unknown) + "/last-instance").then(), 404, 412);
        expect(add(gone, entry("c", "m", "v", null, null)), 409, 413);
        given().get(log(gone)).then().statusCode(200).body("total", equalTo(0));
        given().get(log(s1) + "/abc").then().statusCode(400).body("code", equalTo(1));
    }

    @Test
    void writingNeedsExecutePermissionOnTheApplicationReadingTheViewerRole() {
        long app = 7_000 + System.nanoTime() % 1_000, p = id(), s1 = id();
        try (ExecutionFixtures f = new ExecutionFixtures(bootstrap)) {
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + app,
                    ProcessTrees.application(app, "olga", "ops", 7, 4, 4));
            f.register(ProcessTrees.parent(p).application(app).next(s1).step(s1, s -> s.next(p)));
        }
        String olga = Identity.get().token("olga", Set.of("operator"), Set.of("ops"));
        String oscar = Identity.get().token("oscar", Set.of("operator"), Set.of());
        String vera = Identity.get().token("vera", Set.of("viewer"), Set.of());

        // the application's permissions travel as an event of their own: the owner may log once they have arrived
        await().atMost(WAIT).untilAsserted(() -> add(olga, s1, entry("c", "m", "by olga", null, null)).statusCode(201));
        expect(add(oscar, s1, entry("c", "m", "by oscar", null, null)), 403, 14);
        expect(add(vera, s1, entry("c", "m", "by vera", null, null)), 403, 13);
        given().auth().oauth2(vera).queryParam("messageId", "m").queryParam("category", "c").get(log(s1) + "/last")
                .then().statusCode(200).body("message", equalTo("by olga"));
    }

    private static String log(long pid) {
        return "/processes/" + pid + "/log";
    }

    private static Map<String, Object> entry(String category, String messageId, String message, Long instanceRef,
                                             String addTs) {
        Map<String, Object> body = new HashMap<>();
        body.put("category", category);
        body.put("messageId", messageId);
        body.put("message", message);
        body.put("instanceRef", instanceRef);
        body.put("addTs", addTs);
        return body;
    }

    private static ValidatableResponse add(long pid, Map<String, Object> body) {
        return given().contentType(ContentType.JSON).body(body).post(log(pid)).then();
    }

    private static ValidatableResponse add(String token, long pid, Map<String, Object> body) {
        return given().auth().oauth2(token).contentType(ContentType.JSON).body(body).post(log(pid)).then();
    }

    private static void expect(ValidatableResponse r, int status, int code) {
        r.statusCode(status).contentType("application/problem+json").body("code", equalTo(code));
    }
}
