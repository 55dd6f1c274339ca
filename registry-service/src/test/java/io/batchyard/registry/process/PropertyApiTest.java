package io.batchyard.registry.process;

import static io.batchyard.registry.Fixtures.INGESTION;
import static io.batchyard.registry.Fixtures.SFTP;
import static io.batchyard.registry.Fixtures.application;
import static io.batchyard.registry.Fixtures.parent;
import static io.batchyard.registry.Fixtures.step;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.events.ProcessProperty;
import io.batchyard.events.registry.ProcessChanged;
import io.batchyard.registry.RegistryTest;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.restassured.http.ContentType;
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

    private static void put(long processId, String key, Map<String, Object> body) {
        given().contentType(ContentType.JSON).body(body).put("/processes/" + processId + "/properties/" + key).then()
                .statusCode(200).body("key", equalTo(key));
    }
}
