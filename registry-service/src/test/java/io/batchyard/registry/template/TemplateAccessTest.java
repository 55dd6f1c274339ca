package io.batchyard.registry.template;

import static io.batchyard.registry.Fixtures.INGESTION;
import static io.batchyard.registry.Fixtures.SFTP;
import static io.batchyard.registry.application.Teams.refused;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import io.batchyard.registry.RegistryTest;
import io.batchyard.registry.application.Teams;
import io.batchyard.registry.application.Teams.App;
import io.batchyard.registry.application.Teams.Member;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A template belongs to an application: its permissions decide who reads, changes, deletes or instantiates it. */
@RegistryTest
class TemplateAccessTest {

    private final Member alice = Teams.developer("alice", "team-a");
    private final Member bob = Teams.developer("bob", "team-b");

    @Test
    void onlyWhoMayWriteTheTemplatesApplicationChangesOrDeletesIt() {
        App owners = Teams.application(alice);
        long tpl = template(alice, owners, INGESTION, null);
        long stepTpl = template(alice, owners, SFTP, tpl);
        String props = "/process-templates/" + tpl + "/properties/";

        // bob reads (others: 4) but may not change, delete or add to it
        bob.as().get("/process-templates/" + tpl).then().statusCode(200);
        refused(bob.json(Map.of("description", "hijacked")).patch("/process-templates/" + tpl), 403, 14, owners)
                .body("detail", containsString("template " + tpl));
        refused(bob.as().delete("/process-templates/" + stepTpl), 403, 14, owners);
        refused(bob.json(Map.of("configGroup", "script", "value", "evil.sh")).put(props + "script"), 403, 14,
                owners);
        refused(bob.json(body(owners, SFTP, tpl)).post("/process-templates"), 403, 14, owners);
        refused(bob.json(body(owners, INGESTION, null)).post("/process-templates"), 403, 14, owners);

        // without read permission, the template does not exist for him
        Teams.share(alice, owners, "team-a", 6, 0);
        refused(bob.json(Map.of("description", "hijacked")).patch("/process-templates/" + tpl), 404, 2, owners);
        refused(bob.as().delete("/process-templates/" + tpl), 404, 2, owners);
        refused(bob.as().delete(props + "script"), 404, 2, owners);
        refused(bob.json(body(owners, SFTP, tpl)).post("/process-templates"), 422, 205, owners);
        refused(bob.json(body(owners, INGESTION, null)).post("/process-templates"), 422, 201, owners);

        // a step template lives in its parent template's application
        App bobs = Teams.application(bob);
        Teams.share(alice, owners, "team-a", 6, 4);
        refused(alice.json(body(bobs, SFTP, tpl)).post("/process-templates"), 422, 225, bobs);

        // the owner may
        alice.json(Map.of("configGroup", "script", "value", "fetch.sh")).put(props + "script").then().statusCode(200);
        alice.json(Map.of("description", "changed")).patch("/process-templates/" + tpl).then().statusCode(200);
        alice.as().delete(props + "script").then().statusCode(204);
        alice.as().delete("/process-templates/" + tpl).then().statusCode(204);
    }

    @Test
    void instantiatingNeedsReadOnTheTemplateAndWriteOnTheTarget() {
        App owners = Teams.application(alice);
        long tpl = template(alice, owners, INGESTION, null);
        App bobs = Teams.application(bob);

        // read on the template (others: 4) is enough to make a tree of it in his own application
        bob.json(Map.of("applicationId", bobs.id())).post("/process-templates/" + tpl + "/instantiate").then()
                .statusCode(201).body("parent.applicationId", equalTo((int) bobs.id()));
        // not into the template's own application (the default target), where he may not write
        refused(bob.json(Map.of()).post("/process-templates/" + tpl + "/instantiate"), 403, 14, owners);
        // nor from a template he may not read, nor into an application he may not read
        Teams.share(alice, owners, "team-a", 6, 0);
        refused(bob.json(Map.of("applicationId", bobs.id())).post("/process-templates/" + tpl + "/instantiate"),
                404, 2, owners);
        Teams.share(alice, owners, "team-a", 6, 4);
        Teams.share(bob, bobs, "team-b", 6, 0);
        refused(alice.json(Map.of("applicationId", bobs.id())).post("/process-templates/" + tpl + "/instantiate"),
                422, 201, bobs);
    }

    @Test
    void withoutReadPermissionEveryTemplateReadAnswersNotFound() {
        App hidden = Teams.application(alice);
        long tpl = template(alice, hidden, INGESTION, null);
        long stepTpl = template(alice, hidden, SFTP, tpl);
        Teams.share(alice, hidden, "team-a", 6, 0);
        Member viewer = Teams.viewer("vera");

        for (String read : List.of("/process-templates/" + tpl, "/process-templates/" + stepTpl,
                "/process-templates/" + tpl + "/tree", "/process-templates/" + tpl + "/properties")) {
            refused(viewer.as().get(read), 404, 2, hidden);
            alice.as().get(read).then().statusCode(200);
        }
        viewer.as().queryParam("limit", 500).get("/process-templates").then().statusCode(200)
                .body("items.templateId", not(hasItem((int) tpl)));
        alice.as().queryParam("limit", 500).get("/process-templates").then().statusCode(200)
                .body("items.templateId", hasItem((int) tpl));
    }

    private static long template(Member who, App app, int type, Long parent) {
        return who.json(body(app, type, parent)).post("/process-templates").then().statusCode(201)
                .extract().jsonPath().getLong("templateId");
    }

    private static Map<String, Object> body(App app, int type, Long parent) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "tpl-" + type);
        body.put("description", "a template");
        body.put("applicationId", app.id());
        body.put("processTypeId", type);
        body.put("parentTemplateId", parent);
        return body;
    }
}
