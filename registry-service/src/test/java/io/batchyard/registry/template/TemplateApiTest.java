package io.batchyard.registry.template;

import static io.batchyard.registry.Fixtures.INGESTION;
import static io.batchyard.registry.Fixtures.SFTP;
import static io.batchyard.registry.Fixtures.application;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.registry.RegistryTest;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

@RegistryTest
class TemplateApiTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void instantiatesATemplateTreeWithRemappedLinksAndProperties() {
        long app = application();
        long parentTpl = template(app, INGESTION, null, "ingest-tpl");
        long t1 = template(app, SFTP, parentTpl, "fetch");
        long t2 = template(app, SFTP, parentTpl, "register");
        patchTemplate(parentTpl, List.of(t1));
        patchTemplate(t1, List.of(t2));
        patchTemplate(t2, List.of(parentTpl));
        given().contentType(ContentType.JSON).body(Map.of("configGroup", "script", "value", "fetch.sh"))
                .put("/process-templates/" + t1 + "/properties/script").then().statusCode(200);

        given().get("/process-templates/" + t1 + "/tree").then().statusCode(200)
                .body("parent.templateId", equalTo((int) parentTpl)).body("steps", hasSize(2));

        JsonPath tree = given().contentType(ContentType.JSON).body(Map.of("namePrefix", "acme-"))
                .post("/process-templates/" + parentTpl + "/instantiate").then().statusCode(201)
                .extract().jsonPath();
        long parent = tree.getLong("parent.id");
        long p1 = tree.getLong("steps[0].id");
        long p2 = tree.getLong("steps[1].id");
        assertThat(tree.getString("parent.name")).isEqualTo("acme-ingest-tpl");
        assertThat(tree.getLong("parent.processTemplateId")).isEqualTo(parentTpl);
        assertThat(tree.getList("parent.nextProcessIds", Long.class)).containsExactly(p1);
        assertThat(tree.getList("steps[0].nextProcessIds", Long.class)).containsExactly(p2);
        assertThat(tree.getList("steps[1].nextProcessIds", Long.class)).containsExactly(parent);
        given().get("/processes/" + p1 + "/properties/script").then().statusCode(200).body("value", equalTo("fetch.sh"));

        try (EventProbe events = EventProbe.on(bootstrap, Topics.REGISTRY_PROCESSES)) {
            var registered = events.await(ProcessRegistered.class, e -> e.getParentProcessId() == parent,
                    Duration.ofSeconds(30));
            assertThat(registered.event().getChangedProcessIds()).containsExactly(parent, p1, p2);
            assertThat(registered.event().getSteps().get(0).getProperties()).hasSize(1);
            assertThat(events.all(ProcessRegistered.class, e -> e.getParentProcessId() == parent, Duration.ofSeconds(1)))
                    .as("one event for the whole instantiation").hasSize(1);
        }

        // a second instantiation gives an independent tree
        long again = given().contentType(ContentType.JSON).body("{}").post("/process-templates/" + parentTpl + "/instantiate")
                .then().statusCode(201).extract().jsonPath().getLong("parent.id");
        assertThat(again).isNotEqualTo(parent);
    }

    @Test
    void templatesFollowTheTreeRules() {
        long app = application();
        long parentTpl = template(app, INGESTION, null, "tpl");
        long step = template(app, SFTP, parentTpl, "s");
        Map<String, Object> badType = body(app, INGESTION, parentTpl, "bad");
        given().contentType(ContentType.JSON).body(badType).post("/process-templates").then().statusCode(422)
                .body("code", equalTo(203));
        given().contentType(ContentType.JSON).body(Map.of("nextTemplateIds", List.of(step)))
                .patch("/process-templates/" + step).then().statusCode(422).body("code", equalTo(208));
        given().contentType(ContentType.JSON).body("{}").post("/process-templates/" + step + "/instantiate").then()
                .statusCode(422).body("code", equalTo(214));
        given().contentType(ContentType.JSON).body("{}").post("/process-templates/987654/instantiate").then()
                .statusCode(404);
    }

    @Test
    void aTemplateKeyFollowsTheProcessKeyRuleAndIsCopiedAsIs() {
        long app = application();
        long parentTpl = template(app, INGESTION, null, "keys-tpl");
        long step = template(app, SFTP, parentTpl, "keys-step");
        patchTemplate(parentTpl, List.of(step));
        patchTemplate(step, List.of(parentTpl));
        String url = "/process-templates/" + step + "/properties/";
        given().urlEncodingEnabled(false).contentType(ContentType.JSON)
                .body(Map.of("configGroup", "param", "value", "v")).put(url + "my%20key").then().statusCode(200)
                .body("key", equalTo("my key"));
        for (String refused : List.of("x".repeat(129), "a%0Ab", "a%2Fb")) {
            given().urlEncodingEnabled(false).contentType(ContentType.JSON)
                    .body(Map.of("configGroup", "param", "value", "v")).put(url + refused).then().statusCode(400)
                    .contentType("application/problem+json").body("code", equalTo(1));
            given().urlEncodingEnabled(false).delete(url + refused).then().statusCode(400).body("code", equalTo(1));
        }
        given().get(url).then().statusCode(200).body("key", equalTo(List.of("my key")));

        long p1 = given().contentType(ContentType.JSON).body("{}").post("/process-templates/" + parentTpl + "/instantiate")
                .then().statusCode(201).extract().jsonPath().getLong("steps[0].id");
        given().urlEncodingEnabled(false).get("/processes/" + p1 + "/properties/my%20key").then().statusCode(200)
                .body("key", equalTo("my key"));
        given().urlEncodingEnabled(false).delete(url + "my%20key").then().statusCode(204);
    }

    private static long template(long app, int type, Long parent, String name) {
        return given().contentType(ContentType.JSON).body(body(app, type, parent, name)).post("/process-templates")
                .then().statusCode(201).extract().jsonPath().getLong("templateId");
    }

    private static Map<String, Object> body(long app, int type, Long parent, String name) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", name);
        body.put("description", "template " + name);
        body.put("applicationId", app);
        body.put("processTypeId", type);
        body.put("parentTemplateId", parent);
        return body;
    }

    private static void patchTemplate(long id, List<Long> next) {
        given().contentType(ContentType.JSON).body(Map.of("nextTemplateIds", next)).patch("/process-templates/" + id)
                .then().statusCode(200);
    }
}
