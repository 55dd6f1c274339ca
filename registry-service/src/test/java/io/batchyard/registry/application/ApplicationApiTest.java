package io.batchyard.registry.application;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.registry.Fixtures;
import io.batchyard.registry.RegistryTest;
import io.restassured.http.ContentType;
import java.util.Map;
import org.junit.jupiter.api.Test;

@RegistryTest
class ApplicationApiTest {

    @Test
    void crudWithUniqueNamesAndNoOrphans() {
        String name = Fixtures.unique("sales");
        long id = given().contentType(ContentType.JSON)
                .body(Map.of("name", name, "description", "Sales", "owner", "ops")).post("/applications").then()
                .statusCode(201).header("Location", org.hamcrest.Matchers.containsString("/applications/"))
                .extract().jsonPath().getLong("id");
        given().contentType(ContentType.JSON).body(Map.of("name", name, "description", "again", "owner", "ops"))
                .post("/applications").then().statusCode(409).body("code", equalTo(210));
        given().contentType(ContentType.JSON).body(Map.of("name", name, "description", "Sales v2", "owner", "ops"))
                .put("/applications/" + id).then().statusCode(200).body("description", equalTo("Sales v2"));
        given().queryParam("name", name).get("/applications").then().body("total", equalTo(1))
                .body("items[0].id", equalTo((int) id));
        given().get("/applications/1").then().statusCode(200).body("name", equalTo("Corporate Security Analytics"));

        Fixtures.parent(id, Fixtures.INGESTION);
        given().delete("/applications/" + id).then().statusCode(409).body("code", equalTo(211));
        given().contentType(ContentType.JSON).body(Map.of("name", "", "owner", "x")).post("/applications").then()
                .statusCode(400).body("errors.field", equalTo(java.util.List.of("description", "name")));
        long empty = given().contentType(ContentType.JSON)
                .body(Map.of("name", Fixtures.unique("empty"), "description", "d", "owner", "o")).post("/applications")
                .then().statusCode(201).extract().jsonPath().getLong("id");
        given().delete("/applications/" + empty).then().statusCode(204);
        given().get("/applications/" + empty).then().statusCode(404).body("code", equalTo(2));
    }

    @Test
    void malformedBodiesAreProblemsWithCodeOne() {
        given().contentType(ContentType.JSON).body("{\"name\": ").post("/applications").then().statusCode(400)
                .contentType("application/problem+json").body("code", equalTo(1));
        // a well-formed body whose field has the wrong type: Jackson's own 400 must not leak through
        given().contentType(ContentType.JSON).body("{\"name\": {\"nested\": true}, \"description\": \"d\", \"owner\": \"o\"}")
                .post("/applications").then().statusCode(400).contentType("application/problem+json").body("code", equalTo(1));
        given().contentType(ContentType.JSON).body("[1, 2]").post("/applications").then().statusCode(400)
                .contentType("application/problem+json").body("code", equalTo(1));
    }
}
