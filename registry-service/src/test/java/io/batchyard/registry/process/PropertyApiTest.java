package io.batchyard.registry.process;

import static io.batchyard.registry.Fixtures.INGESTION;
import static io.batchyard.registry.Fixtures.SFTP;
import static io.batchyard.registry.Fixtures.application;
import static io.batchyard.registry.Fixtures.parent;
import static io.batchyard.registry.Fixtures.step;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.events.ProcessProperty;
import io.batchyard.events.registry.ProcessChanged;
import io.batchyard.registry.RegistryTest;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.restassured.http.ContentType;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

@RegistryTest
class PropertyApiTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void propertiesAreGroupedAndTravelWithTheTreeExceptCredentials() {
        long app = application();
        long job = parent(app, INGESTION);
        long s1 = step(app, job, SFTP);
        put(s1, "script", Map.of("configGroup", "script", "value", "load.sh", "description", "the script"));
        put(s1, "source", Map.of("configGroup", "param", "value", "/in"));
        put(s1, "password", Map.of("configGroup", "credential", "value", "hunter2"));

        given().get("/processes/" + s1 + "/properties").then().statusCode(200)
                .body("key", equalTo(List.of("password", "source", "script")));
        given().queryParam("configGroup", "param").get("/processes/" + s1 + "/properties").then()
                .body("key", equalTo(List.of("source")));
        // the key is unique per process across groups: moving it to another group replaces it
        put(s1, "source", Map.of("configGroup", "query", "value", "/in2"));
        given().get("/processes/" + s1 + "/properties/source").then()
                .body("configGroup", equalTo("query")).body("value", equalTo("/in2"));

        try (EventProbe events = EventProbe.on(bootstrap, Topics.REGISTRY_PROCESSES)) {
            List<ProcessChanged> changes = events.all(ProcessChanged.class,
                    e -> e.getParentProcessId() == job && e.getChangedProcessIds().contains(s1), Duration.ofSeconds(2));
            assertThat(changes).hasSize(4);
            List<ProcessProperty> last = changes.get(3).getSteps().get(0).getProperties();
            assertThat(last).extracting(ProcessProperty::getKey).containsExactly("source", "script");
            assertThat(changes).allSatisfy(c -> assertThat(c.toString()).doesNotContain("hunter2"));
        }

        given().delete("/processes/" + s1 + "/properties/source").then().statusCode(204);
        given().delete("/processes/" + s1 + "/properties/source").then().statusCode(404).body("code", equalTo(2));
        given().contentType(ContentType.JSON).body(Map.of("value", "x"))
                .put("/processes/" + s1 + "/properties/k").then().statusCode(400).body("errors.field", equalTo(List.of("configGroup")));
        given().get("/processes/424242424/properties").then().statusCode(404);
    }

    @Test
    void aKeyWithSpacesRoundTripsPercentEncoded() {
        long app = application();
        long s1 = step(app, parent(app, INGESTION), SFTP);
        String url = "/processes/" + s1 + "/properties/";
        given().urlEncodingEnabled(false).contentType(ContentType.JSON)
                .body(Map.of("configGroup", "param", "value", "v 1")).put(url + "my%20key").then().statusCode(200)
                .body("key", equalTo("my key"));
        given().urlEncodingEnabled(false).get(url + "my%20key").then().statusCode(200)
                .body("key", equalTo("my key")).body("value", equalTo("v 1"));
        given().get(url).then().statusCode(200).body("key", equalTo(List.of("my key")));
        // a client that encodes the path itself reaches the same key
        given().get("/processes/{id}/properties/{key}", s1, "my key").then().statusCode(200)
                .body("key", equalTo("my key"));
        given().urlEncodingEnabled(false).delete(url + "my%20key").then().statusCode(204);
        given().urlEncodingEnabled(false).get(url + "my%20key").then().statusCode(404).body("code", equalTo(2));
        given().get(url).then().statusCode(200).body("key", equalTo(List.of()));
    }

    @Test
    void anyTextOfUpTo128CharactersIsAKey() {
        long app = application();
        long s1 = step(app, parent(app, INGESTION), SFTP);
        String url = "/processes/" + s1 + "/properties/";
        List<String> keys = List.of(" lead and trail ", "a;b", "100%", "a?b#c", "a+b", "ключ", "x".repeat(128),
                // 128 characters outside the BMP: 256 UTF-16 units, counted as PostgreSQL counts them
                "\uD83D\uDE00".repeat(128));
        for (String key : keys) {
            given().urlEncodingEnabled(false).contentType(ContentType.JSON)
                    .body(Map.of("configGroup", "param", "value", "v")).put(url + encoded(key)).then()
                    .statusCode(200).body("key", equalTo(key));
            given().urlEncodingEnabled(false).get(url + encoded(key)).then().statusCode(200)
                    .body("key", equalTo(key));
        }
        assertThat(given().get(url).then().statusCode(200).extract().jsonPath().getList("key", String.class))
                .containsExactlyInAnyOrderElementsOf(keys);
    }

    @Test
    void tooLongControlSlashAndEmptyKeysAreRefused() {
        long app = application();
        long s1 = step(app, parent(app, INGESTION), SFTP);
        String url = "/processes/" + s1 + "/properties/";
        Map<String, String> refused = Map.of(
                encoded("x".repeat(129)), "at most 128 characters",
                encoded("\uD83D\uDE00".repeat(129)), "at most 128 characters",
                "%0A", "control characters", "a%09b", "control characters", "%7F", "control characters",
                "%C2%85", "control characters", "a%2Fb", "'/'", "%2F", "'/'");
        refused.forEach((key, why) -> {
            for (var response : List.of(
                    given().urlEncodingEnabled(false).contentType(ContentType.JSON)
                            .body(Map.of("configGroup", "param", "value", "v")).put(url + key),
                    given().urlEncodingEnabled(false).get(url + key),
                    given().urlEncodingEnabled(false).delete(url + key))) {
                response.then().statusCode(400).contentType("application/problem+json").body("code", equalTo(1))
                        .body("errors[0].message", containsString(why));
            }
        });
        // dot segments never reach a resource; an empty last segment names the list, where nothing is put
        given().urlEncodingEnabled(false).contentType(ContentType.JSON).body(Map.of("configGroup", "param", "value", "v"))
                .put(url + "%2E%2E").then().statusCode(400).body("code", equalTo(1));
        given().contentType(ContentType.JSON).body(Map.of("configGroup", "param", "value", "v"))
                .put(url).then().statusCode(404).contentType("application/problem+json").body("code", equalTo(2));
        given().get(url).then().statusCode(200).body("key", equalTo(List.of()));
    }

    /** {@code text} as one percent-encoded path segment (a space as %20, not '+'). */
    private static String encoded(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static void put(long processId, String key, Map<String, Object> body) {
        given().contentType(ContentType.JSON).body(body).put("/processes/" + processId + "/properties/" + key).then()
                .statusCode(200).body("key", equalTo(key));
    }
}
