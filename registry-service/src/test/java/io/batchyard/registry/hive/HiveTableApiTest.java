package io.batchyard.registry.hive;

import static io.batchyard.registry.Fixtures.INGESTION;
import static io.batchyard.registry.Fixtures.SFTP;
import static io.batchyard.registry.Fixtures.application;
import static io.batchyard.registry.Fixtures.parent;
import static io.batchyard.registry.Fixtures.step;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.registry.Fixtures;
import io.batchyard.registry.RegistryTest;
import io.restassured.http.ContentType;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

@RegistryTest
class HiveTableApiTest {

    @Test
    void registersDdlsAndLinksThemToADataLoadProcess() {
        String db = "db_" + Fixtures.unique("x").replace("-", "_");
        long app = application();
        long raw = table(app, db, "sales_raw", "TABLE");
        long view = table(app, db, "sales_raw_v", "VIEW");
        long base = table(app, db, "sales", "TABLE");
        given().contentType(ContentType.JSON).body(hive(app, db, "sales", "TABLE")).post("/hive-tables").then()
                .statusCode(409).body("code", equalTo(210));
        given().queryParam("dbName", db).get("/hive-tables").then().body("total", equalTo(3));

        long job = parent(app, INGESTION);
        Map<String, Object> driver = Map.of("rawTableId", raw, "rawViewId", view, "baseTableId", base, "dropRaw", true);
        given().contentType(ContentType.JSON).body(driver).put("/processes/" + job + "/etl-driver").then()
                .statusCode(200).body("insertType", equalTo(1));
        given().get("/processes/" + job + "/etl-driver").then().statusCode(200)
                .body("rawTableId", equalTo((int) raw)).body("dropRaw", equalTo(true));

        // the raw view must be a view, the driver belongs to a parent
        given().contentType(ContentType.JSON).body(Map.of("rawTableId", raw, "rawViewId", base))
                .put("/processes/" + job + "/etl-driver").then().statusCode(422).body("code", equalTo(201));
        long s = step(app, job, SFTP);
        given().contentType(ContentType.JSON).body(driver).put("/processes/" + s + "/etl-driver").then()
                .statusCode(422).body("code", equalTo(205));

        given().delete("/hive-tables/" + raw).then().statusCode(409).body("code", equalTo(211));
        given().delete("/processes/" + job + "/etl-driver").then().statusCode(204);
        given().delete("/hive-tables/" + raw).then().statusCode(204);
        given().get("/hive-tables/" + raw).then().statusCode(404);
        given().contentType(ContentType.JSON).body(hive(app, db, "bad name", "TABLE")).post("/hive-tables").then()
                .statusCode(400).body("errors.field", equalTo(java.util.List.of("tableName")));
    }

    static long table(long app, String db, String name, String type) {
        return given().contentType(ContentType.JSON).body(hive(app, db, name, type)).post("/hive-tables").then()
                .statusCode(201).extract().jsonPath().getLong("id");
    }

    static Map<String, Object> hive(long app, String db, String name, String type) {
        Map<String, Object> body = new HashMap<>();
        body.put("applicationId", app);
        body.put("locationType", "external");
        body.put("dbName", db);
        body.put("tableName", name);
        body.put("type", type);
        body.put("batchIdPartitionCol", "batchid");
        body.put("ddl", "CREATE " + type + " " + db + "." + name.replace(' ', '_') + " (id INT)");
        return body;
    }
}
