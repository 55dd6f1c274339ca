package io.batchyard.registry.hive;

import static io.batchyard.registry.Fixtures.INGESTION;
import static io.batchyard.registry.application.Teams.refused;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.registry.Fixtures;
import io.batchyard.registry.RegistryTest;
import io.batchyard.registry.application.Teams;
import io.batchyard.registry.application.Teams.App;
import io.batchyard.registry.application.Teams.Member;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A Hive table belongs to an application: its permissions decide who reads, changes, deletes or links it. */
@RegistryTest
class HiveTableAccessTest {

    private final Member alice = Teams.developer("alice", "team-a");
    private final Member bob = Teams.developer("bob", "team-b");
    private final String db = "db_" + Fixtures.unique("acl").replace("-", "_");

    @Test
    void onlyWhoMayWriteTheTablesApplicationChangesOrDeletesIt() {
        App owners = Teams.application(alice);
        long table = alice.json(HiveTableApiTest.hive(owners.id(), db, "orders", "TABLE")).post("/hive-tables")
                .then().statusCode(201).body("applicationId", equalTo((int) owners.id()))
                .extract().jsonPath().getLong("id");
        Map<String, Object> changed = HiveTableApiTest.hive(owners.id(), db, "orders_v2", "TABLE");

        // bob reads (others: 4) but may not change, delete or register tables there
        bob.as().get("/hive-tables/" + table).then().statusCode(200);
        refused(bob.json(changed).put("/hive-tables/" + table), 403, 14, owners)
                .body("detail", containsString("hive table " + table));
        refused(bob.as().delete("/hive-tables/" + table), 403, 14, owners);
        refused(bob.json(HiveTableApiTest.hive(owners.id(), db, "planted", "TABLE")).post("/hive-tables"), 403, 14,
                owners);
        // nor take it into his own application
        App bobs = Teams.application(bob);
        refused(bob.json(HiveTableApiTest.hive(bobs.id(), db, "orders", "TABLE")).put("/hive-tables/" + table), 403,
                14, owners);

        // without read permission the table does not exist for him, nor for a viewer
        Teams.share(alice, owners, "team-a", 6, 0);
        Member viewer = Teams.viewer("vera");
        for (Member outsider : new Member[] {bob, viewer}) {
            refused(outsider.as().get("/hive-tables/" + table), 404, 2, owners);
            outsider.as().queryParam("dbName", db).get("/hive-tables").then().statusCode(200)
                    .body("total", equalTo(0));
        }
        refused(bob.json(changed).put("/hive-tables/" + table), 404, 2, owners);
        refused(bob.as().delete("/hive-tables/" + table), 404, 2, owners);
        refused(bob.json(HiveTableApiTest.hive(owners.id(), db, "planted", "TABLE")).post("/hive-tables"), 422, 201,
                owners);

        // an ETL driver of his may not name it either: an unknown table, as far as he can tell
        long job = bob.json(Fixtures.parentBody(bobs.id(), INGESTION)).post("/processes").then().statusCode(201)
                .extract().jsonPath().getLong("id");
        long view = bob.json(HiveTableApiTest.hive(bobs.id(), db, "bobs_view", "VIEW")).post("/hive-tables").then()
                .statusCode(201).extract().jsonPath().getLong("id");
        refused(bob.json(Map.of("rawTableId", table, "rawViewId", view)).put("/processes/" + job + "/etl-driver"),
                422, 201, owners).body("detail", equalTo("hive table " + table + " does not exist"));

        // the owner may (and sees bob's view, which his application lets others read)
        alice.as().queryParam("dbName", db).get("/hive-tables").then().body("total", equalTo(2))
                .body("items.tableName", containsInAnyOrder("orders", "bobs_view"));
        alice.json(changed).put("/hive-tables/" + table).then().statusCode(200).body("tableName", equalTo("orders_v2"));
        alice.as().delete("/hive-tables/" + table).then().statusCode(204);
    }

    @Test
    void aTableNamesItsApplication() {
        Map<String, Object> body = HiveTableApiTest.hive(1, db, "unowned", "TABLE");
        body.remove("applicationId");
        alice.json(body).post("/hive-tables").then().statusCode(400).body("code", equalTo(1));
    }
}
