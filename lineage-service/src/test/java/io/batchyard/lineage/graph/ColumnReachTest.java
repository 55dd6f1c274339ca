package io.batchyard.lineage.graph;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.identity.Identity;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The internal reach question a backfill asks: which jobs a change of a column reaches, over every process's queries,
 * through any number of hops. A chain reach.a.x → reach.b.x2 (process 9101) → reach.d.x3 (9103), and reach.a.y →
 * reach.c.y2 (9102), each written by its own process's query.
 */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "lineage"))
class ColumnReachTest {

    private static final String SERVICE = Identity.get().serviceToken("execution");

    @Test
    void aColumnReachesTheJobsWhoseQueriesReadItOrAColumnMadeFromIt() {
        given().contentType(ContentType.JSON).body(Map.of("columns", List.of("x", "y")))
                .put("/tables/reach.a").then().statusCode(200);
        register(9101, "INSERT OVERWRITE TABLE reach.b SELECT a.x AS x2 FROM reach.a a");
        register(9102, "INSERT OVERWRITE TABLE reach.c SELECT a.y AS y2 FROM reach.a a");
        register(9103, "INSERT OVERWRITE TABLE reach.d SELECT b.x2 AS x3 FROM reach.b b");

        JsonPath reach = given().auth().oauth2(SERVICE).contentType(ContentType.JSON)
                .body(Map.of("columns", List.of("reach.a.x", "REACH.A.Y", "reach.d.x3", "reach.nowhere.z")))
                .post("/internal/lineage/reach").then().statusCode(200).extract().jsonPath();
        assertThat(reach.getList("columns.column", String.class))
                .containsExactly("reach.a.x", "REACH.A.Y", "reach.d.x3", "reach.nowhere.z");
        assertThat(reach.getList("columns[0].jobs", Long.class)).containsExactly(9101L, 9103L);
        // names are case-insensitive, as in Hive
        assertThat(reach.getList("columns[1].jobs", Long.class)).containsExactly(9102L);
        // the last column of the chain: known, read by nobody
        assertThat(reach.getBoolean("columns[2].known")).isTrue();
        assertThat(reach.getList("columns[2].jobs", Long.class)).isEmpty();
        assertThat(reach.getBoolean("columns[3].known")).isFalse();
    }

    @Test
    void onlyServicesMayAskAndAColumnIsNamedInFull() {
        Map<String, List<String>> body = Map.of("columns", List.of("reach.a.x"));
        given().auth().oauth2(Identity.get().token("vic", Set.of("viewer"), Set.of())).contentType(ContentType.JSON)
                .body(body).post("/internal/lineage/reach").then().statusCode(403).body("code", equalTo(13));
        given().auth().oauth2(SERVICE).contentType(ContentType.JSON).body(Map.of("columns", List.of("reach_a_x")))
                .post("/internal/lineage/reach").then().statusCode(400).body("code", equalTo(1));
        given().auth().oauth2(SERVICE).contentType(ContentType.JSON).body(Map.of("columns", List.of()))
                .post("/internal/lineage/reach").then().statusCode(400).body("code", equalTo(1));
    }

    private static void register(long processId, String sql) {
        given().contentType(ContentType.JSON).body(Map.of("queryType", "HIVE", "processId", processId,
                        "instanceExecId", processId * 10, "queryText", sql))
                .post("/queries").then().statusCode(201).body("parseStatus", equalTo("PARSED"));
    }
}
