package io.batchyard.registry.application;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.batchyard.registry.Fixtures;
import io.batchyard.registry.RegistryTest;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Per-application permissions: the creator owns an application; the owner, the owner group and everyone else get the
 * permission types the application gives them (0 none, 4 read, 6 read + write, 7 read + write + execute); an
 * administrator passes every check; seeded master data cannot be deleted.
 */
@RegistryTest
class ApplicationPermissionTest {

    private final String alice = Identity.get().token("alice", Set.of("developer"), Set.of("team-a"));
    private final String bob = Identity.get().token("bob", Set.of("developer"), Set.of("team-b"));
    private final String carol = Identity.get().token("carol", Set.of("developer"), Set.of("team-a"));

    @Test
    void ownerGroupAndOthersGetWhatTheApplicationGivesThem() {
        long app = as(alice).contentType(ContentType.JSON)
                .body(Map.of("name", Fixtures.unique("perm"), "description", "d", "owner", "team a"))
                .post("/applications").then().statusCode(201)
                .body("permissions.ownerUser", equalTo("alice"))
                .body("permissions.ownerGroup", nullValue())
                .body("permissions.owner", equalTo(7)).body("permissions.group", equalTo(6))
                .body("permissions.others", equalTo(4))
                .extract().jsonPath().getLong("id");
        long process = as(alice).contentType(ContentType.JSON).body(Fixtures.parentBody(app, Fixtures.INGESTION))
                .post("/processes").then().statusCode(201).extract().jsonPath().getLong("id");

        // others (4): bob reads but does not write
        as(bob).get("/processes/" + process).then().statusCode(200);
        rename(bob, process).then().statusCode(403).body("code", equalTo(14));
        as(bob).contentType(ContentType.JSON).body(Fixtures.stepBody(app, process, Fixtures.INGESTION))
                .post("/processes").then().statusCode(403).body("code", equalTo(14));
        as(bob).contentType(ContentType.JSON).body(Map.of("configGroup", "etl", "value", "v"))
                .put("/processes/" + process + "/properties/k").then().statusCode(403).body("code", equalTo(14));
        as(bob).get("/applications/" + app + "/permissions").then().statusCode(403).body("code", equalTo(14));

        // the owner shares the application with team-a (group 6: read + write)
        setPermissions(alice, app, "alice", "team-a", 7, 6, 0).then().statusCode(200)
                .body("ownerGroup", equalTo("team-a")).body("others", equalTo(0));
        rename(carol, process).then().statusCode(200);
        // bob may no longer read: to him the process and the application do not exist
        as(bob).get("/processes/" + process).then().statusCode(404).body("code", equalTo(2));
        as(bob).get("/processes/" + process + "/workflow").then().statusCode(404).body("code", equalTo(2));
        setPermissions(bob, app, "bob", null, 7, 7, 7).then().statusCode(404).body("code", equalTo(2));
        setPermissions(alice, app, "alice", null, 7, 5, 0).then().statusCode(400).body("code", equalTo(221));

        // an administrator passes every check and may hand the application over
        rename(Identity.get().adminToken(), process).then().statusCode(200);
        setPermissions(Identity.get().adminToken(), app, "bob", null, 7, 0, 0).then().statusCode(200);
        rename(bob, process).then().statusCode(200);
        rename(alice, process).then().statusCode(404).body("code", equalTo(2));
        as(alice).get("/applications/" + app + "/permissions").then().statusCode(404);
        as(bob).get("/applications/" + app + "/permissions").then().statusCode(200).body("ownerUser", equalTo("bob"));
    }

    @Test
    void theProcessListingShowsOnlyWhatTheCallerMayRead() {
        long app = as(alice).contentType(ContentType.JSON)
                .body(Map.of("name", Fixtures.unique("listing"), "description", "d", "owner", "team a"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        io.restassured.path.json.JsonPath created = as(alice).contentType(ContentType.JSON)
                .body(Fixtures.parentBody(app, Fixtures.INGESTION)).post("/processes").then().statusCode(201)
                .extract().jsonPath();
        long process = created.getLong("id");
        setPermissions(alice, app, "alice", "team-a", 7, 4, 0).then().statusCode(200);

        // owner, owner group and administrators see the process, with a total that counts it
        for (String reader : new String[] {alice, carol, Identity.get().adminToken()}) {
            as(reader).queryParam("applicationId", app).get("/processes").then().statusCode(200)
                    .body("items.id", org.hamcrest.Matchers.contains((int) process)).body("total", equalTo(1));
        }
        // others hold 0: the process is neither listed nor counted, also without the application filter
        as(bob).queryParam("applicationId", app).get("/processes").then().statusCode(200)
                .body("items", org.hamcrest.Matchers.empty()).body("total", equalTo(0));
        as(bob).queryParam("name", created.getString("name")).get("/processes").then().statusCode(200)
                .body("items", org.hamcrest.Matchers.empty()).body("total", equalTo(0));
        as(alice).queryParam("name", created.getString("name")).get("/processes").then().statusCode(200)
                .body("total", equalTo(1));
        // the seeded application gives others read: everyone sees its processes
        as(bob).queryParam("applicationId", 1).get("/processes").then().statusCode(200);
    }

    @Test
    void onlyTheOwnerAndAdministratorsSeeWhoMayDoWhat() {
        Teams.Member owner = Teams.developer("olga", "team-o");
        Teams.Member member = Teams.developer("greg", "team-o");
        Teams.Member other = Teams.developer("otto", "team-x");
        Teams.App app = Teams.application(owner);
        Teams.share(owner, app, "team-o", 6, 4);

        for (String reader : new String[] {owner.token(), Identity.get().adminToken()}) {
            as(reader).queryParam("name", app.name()).get("/applications").then().statusCode(200)
                    .body("total", equalTo(1)).body("items[0].permissions.ownerUser", equalTo(owner.name()))
                    .body("items[0].permissions.ownerGroup", equalTo("team-o"))
                    .body("items[0].permissions.group", equalTo(6)).body("items[0].owner", equalTo(owner.name()));
            as(reader).get("/applications/" + app.id()).then().statusCode(200)
                    .body("permissions.others", equalTo(4));
        }
        // a member of the owner group and everyone else who may read it see what it is, not who may do what
        for (Teams.Member reader : new Teams.Member[] {member, other}) {
            reader.as().queryParam("name", app.name()).get("/applications").then().statusCode(200)
                    .body("total", equalTo(1))
                    .body("items[0].keySet()", containsInAnyOrder("id", "name", "description"));
            reader.as().get("/applications/" + app.id()).then().statusCode(200)
                    .body("keySet()", containsInAnyOrder("id", "name", "description"));
        }
        // the group may change the description, and is answered without the permission bits too
        member.json(Map.of("name", app.name(), "description", "renamed", "owner", "team o"))
                .put("/applications/" + app.id()).then().statusCode(200)
                .body("keySet()", containsInAnyOrder("id", "name", "description"));

        // an application the caller may not read is neither listed nor counted, and does not exist for it
        Teams.share(owner, app, "team-o", 6, 0);
        other.as().queryParam("name", app.name()).get("/applications").then().statusCode(200)
                .body("total", equalTo(0)).body("items", org.hamcrest.Matchers.empty());
        Teams.refused(other.as().get("/applications/" + app.id()), 404, 2, app);
        Teams.refused(other.json(Map.of("name", app.name(), "description", "x", "owner", "x"))
                .put("/applications/" + app.id()), 404, 2, app);
        Teams.refused(other.as().get("/applications/" + app.id() + "/permissions"), 404, 2, app);
        Teams.refused(member.as().get("/applications/" + app.id() + "/permissions"), 403, 14, app);
        as(Identity.get().token("vic", "viewer")).queryParam("name", app.name()).get("/applications").then()
                .statusCode(200).body("total", equalTo(0));
    }

    @Test
    void seededMasterDataCannotBeDeletedByAnyone() {
        given().delete("/applications/1").then().statusCode(409).contentType("application/problem+json")
                .body("code", equalTo(220));
        given().get("/applications/1").then().statusCode(200);
    }

    private static RequestSpecification as(String token) {
        return given().auth().oauth2(token);
    }

    private static io.restassured.response.Response rename(String token, long process) {
        return as(token).contentType(ContentType.JSON).body(Map.of("description", Fixtures.unique("renamed")))
                .patch("/processes/" + process);
    }

    private static io.restassured.response.Response setPermissions(String token, long app, String ownerUser,
                                                                   String ownerGroup, int owner, int group,
                                                                   int others) {
        Map<String, Object> body = new HashMap<>();
        body.put("ownerUser", ownerUser);
        body.put("ownerGroup", ownerGroup);
        body.put("owner", owner);
        body.put("group", group);
        body.put("others", others);
        return as(token).contentType(ContentType.JSON).body(body).put("/applications/" + app + "/permissions");
    }
}
