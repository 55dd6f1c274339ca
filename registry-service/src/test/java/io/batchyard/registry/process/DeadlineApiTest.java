package io.batchyard.registry.process;

import static io.batchyard.registry.Fixtures.INGESTION;
import static io.batchyard.registry.Fixtures.SFTP;
import static io.batchyard.registry.Fixtures.application;
import static io.batchyard.registry.Fixtures.parent;
import static io.batchyard.registry.Fixtures.step;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.batchyard.events.ProcessDeadlines;
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
class DeadlineApiTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aParentsDeadlinesAreSetCheckedAndAnnouncedWithItsTree() {
        long app = application();
        long job = parent(app, INGESTION);
        String url = "/processes/" + job + "/deadlines";
        given().get(url).then().statusCode(404).body("code", equalTo(2));

        given().contentType(ContentType.JSON).body(Map.of("zone", "Europe/Berlin", "startBy", "pt1h",
                "finishBy", "PT6H", "maxRuntime", "PT2H")).put(url).then().statusCode(200)
                .body("grain", equalTo("day")).body("startBy", equalTo("PT1H")).body("cron", nullValue());
        given().get(url).then().statusCode(200).body("zone", equalTo("Europe/Berlin"))
                .body("finishBy", equalTo("PT6H")).body("maxRuntime", equalTo("PT2H"));
        given().contentType(ContentType.JSON).body(Map.of("grain", "HOUR", "cron", "15 * * * *", "zone", "UTC",
                "finishBy", "PT30M")).put(url).then().statusCode(200).body("grain", equalTo("hour"));

        try (EventProbe events = EventProbe.on(bootstrap, Topics.REGISTRY_PROCESSES)) {
            List<ProcessChanged> changes = events.all(ProcessChanged.class, e -> e.getParentProcessId() == job,
                    Duration.ofSeconds(2));
            assertThat(changes).hasSize(2);
            ProcessDeadlines first = changes.get(0).getParent().getDeadlines();
            assertThat(first.getZone()).isEqualTo("Europe/Berlin");
            assertThat(first.getFinishBy()).isEqualTo("PT6H");
            assertThat(changes.get(1).getParent().getDeadlines().getCron()).isEqualTo("15 * * * *");
        }

        given().delete(url).then().statusCode(204);
        given().delete(url).then().statusCode(404).body("code", equalTo(2));
        try (EventProbe events = EventProbe.on(bootstrap, Topics.REGISTRY_PROCESSES)) {
            List<ProcessChanged> changes = events.all(ProcessChanged.class, e -> e.getParentProcessId() == job,
                    Duration.ofSeconds(2));
            assertThat(changes).hasSize(3);
            assertThat(changes.get(2).getParent().getDeadlines()).isNull();
        }
    }

    @Test
    void badDeadlinesAreRefusedWith228AndStepsHaveNone() {
        long app = application();
        long job = parent(app, INGESTION);
        long s1 = step(app, job, SFTP);
        String url = "/processes/" + job + "/deadlines";
        for (Map<String, String> bad : List.of(
                Map.of("finishBy", "PT6H"),
                Map.of("zone", "Mars/Olympus", "finishBy", "PT6H"),
                Map.of("zone", "UTC", "grain", "fortnight", "finishBy", "PT6H"),
                Map.of("zone", "UTC", "cron", "every day", "finishBy", "PT6H"),
                Map.of("zone", "UTC", "finishBy", "6 hours"),
                Map.of("zone", "UTC", "finishBy", "-PT1H"),
                Map.of("zone", "UTC", "maxRuntime", "PT0S"),
                Map.of("zone", "UTC", "finishBy", "P400D"),
                Map.of("zone", "UTC", "startBy", "PT7H", "finishBy", "PT6H"),
                Map.of("zone", "UTC"))) {
            given().contentType(ContentType.JSON).body(bad).put(url).then().statusCode(422).body("code", equalTo(228));
        }
        given().contentType(ContentType.JSON).body(Map.of("zone", "UTC", "finishBy", "PT6H"))
                .put("/processes/" + s1 + "/deadlines").then().statusCode(422).body("code", equalTo(228));
        given().contentType(ContentType.JSON).body(Map.of("zone", "UTC", "finishBy", "PT6H"))
                .put("/processes/424242424/deadlines").then().statusCode(404).body("code", equalTo(2));
        given().get(url).then().statusCode(404);
    }
}
