package io.batchyard.registry.application;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import io.batchyard.registry.Fixtures;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Callers of different teams, each with a token of the real token issuer, and applications they own with the
 * permissions a test gives them: the fixtures of the permission tests of every registry feature.
 */
public final class Teams {

    /** A caller: a unique user name, the groups and roles its token carries. */
    public record Member(String name, String token) {

        public RequestSpecification as() {
            return given().auth().oauth2(token);
        }

        public RequestSpecification json(Object body) {
            return as().contentType(ContentType.JSON).body(body);
        }
    }

    /** An application, by id and (unique) name. */
    public record App(long id, String name) {
    }

    private Teams() {
    }

    public static Member developer(String name, String group) {
        String unique = Fixtures.unique(name);
        return new Member(unique, Identity.get().token(unique, Set.of("developer"), Set.of(group)));
    }

    public static Member viewer(String name) {
        String unique = Fixtures.unique(name);
        return new Member(unique, Identity.get().token(unique, Set.of("viewer"), Set.of()));
    }

    /** An application {@code owner} creates, and so owns (owner 7, group 6, others 4 until changed). */
    public static App application(Member owner) {
        String name = Fixtures.unique("team-app");
        long id = owner.json(Map.of("name", name, "description", "an application of " + owner.name(),
                        "owner", owner.name()))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        return new App(id, name);
    }

    /** The owner sets who shares the application: {@code group}'s permission type, and everyone else's. */
    public static void share(Member owner, App app, String group, int groupType, int othersType) {
        Map<String, Object> body = new HashMap<>();
        body.put("ownerUser", owner.name());
        body.put("ownerGroup", group);
        body.put("owner", 7);
        body.put("group", groupType);
        body.put("others", othersType);
        owner.json(body).put("/applications/" + app.id() + "/permissions").then().statusCode(200);
    }

    /** A refusal: problem+json with {@code status} and {@code code}, whose text does not name {@code app}. */
    public static ValidatableResponse refused(Response response, int status, int code, App app) {
        return response.then().statusCode(status).contentType("application/problem+json")
                .body("code", equalTo(code))
                .body("detail", not(containsString(app.name())));
    }
}
