package io.batchyard.lineage.query;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.emptyOrNullString;

import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.Graphviz;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Registering queries over REST against real PostgreSQL, and reading the column graph back in every format. */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "lineage"))
class QueryApiTest {

    @Test
    void aRegisteredHiveQueryIsParsedIntoAQueryableColumnGraph() throws Exception {
        given().contentType(ContentType.JSON).body(Map.of("columns", List.of("id", "name", "email", "country"),
                        "types", Map.of("id", "bigint", "Name", "string")))
                .put("/tables/api.customers").then().statusCode(200).body("learnedFrom", equalTo("api"))
                .body("types", equalTo(Map.of("id", "bigint", "name", "string")));
        // a type only for a column the table lists
        given().contentType(ContentType.JSON).body(Map.of("columns", List.of("id"), "types", Map.of("nope", "int")))
                .put("/tables/api.typo").then().statusCode(400).body("code", equalTo(506));
        String sql = """
                INSERT OVERWRITE TABLE api.customer_dim PARTITION (dt='2024-05-01')
                SELECT c.id, upper(c.name) AS name_upper, c.country FROM api.customers c""";
        JsonPath q = register(Map.of("queryType", "HIVE", "queryText", sql, "processId", 7, "instanceExecId", 70))
                .then().statusCode(201).body("parseStatus", equalTo("PARSED")).extract().jsonPath();
        given().get("/queries/" + q.getString("id")).then().statusCode(200)
                .body("queryText", equalTo(sql)).body("relationCount", equalTo(q.getInt("relationCount")));

        JsonPath up = given().queryParam("table", "api.customer_dim").queryParam("column", "name_upper")
                .queryParam("direction", "upstream").get("/lineage/columns").then().statusCode(200).extract().jsonPath();
        assertThat(up.getList("nodes.key", String.class)).contains("api.customers.name", "api.customer_dim.name_upper")
                .doesNotContain("api.customers.country");
        assertThat(up.getList("nodes.type", String.class)).contains("FUNCTION");

        JsonPath down = given().queryParam("table", "api.customers").queryParam("column", "country")
                .queryParam("direction", "downstream").queryParam("depth", 1).get("/lineage/columns").then()
                .statusCode(200).extract().jsonPath();
        assertThat(down.getList("nodes.key", String.class)).contains("api.customer_dim.country");

        // The unreferenced input column is a real idle column (type 5), drawn in the table's graph.
        JsonPath table = given().get("/lineage/tables/api.customers").then().statusCode(200).extract().jsonPath();
        assertThat(table.getList("nodes.findAll { it.type == 'IDLE_COLUMN' }.name", String.class)).containsExactly("email");

        JsonPath upstreamOfTarget = given().queryParam("direction", "upstream").queryParam("depth", 2)
                .get("/lineage/tables/api.customer_dim").then().statusCode(200).extract().jsonPath();
        assertThat(upstreamOfTarget.getList("nodes.key", String.class)).contains("api.customers.name", "api.customers.id")
                .doesNotContain("api.customers.email");
        JsonPath impact = given().get("/lineage/tables/api.customers/impact").then().statusCode(200).extract().jsonPath();
        assertThat(impact.getList("columns.column", String.class)).contains("id", "name_upper", "country");
        assertThat(impact.getList("tables", String.class)).containsExactly("api.customer_dim");
        assertThat(impact.getList("processes", Integer.class)).containsExactly(7);

        String dot = given().queryParam("table", "api.customer_dim").queryParam("column", "name_upper")
                .queryParam("format", "dot").get("/lineage/columns").then().statusCode(200)
                .contentType(containsString("text/vnd.graphviz")).extract().asString();
        assertThat(dot).startsWith("strict digraph g {").contains("Table api.customers").contains("\"upper\"");
        assertThat(Graphviz.render(dot).exitCode()).isZero();
        given().get("/lineage/tables/api.customers/impact?format=svg").then().statusCode(200)
                .contentType(containsString("image/svg+xml")).body(containsString("<svg"));
    }

    /**
     * A table used only in a join and a filter still drives the target: indirect relations make that visible. The
     * second statement reads b.flag again, in a GROUP BY: the one stored relation keeps both clauses as subtypes.
     */
    @Test
    void joinAndFilterColumnsAreIndirectLineage() {
        register(Map.of("queryType", "HIVE", "processId", 13, "instanceExecId", 1300, "queryText",
                "INSERT OVERWRITE TABLE ind.out_t SELECT a.x FROM ind.a a JOIN ind.b b ON a.k = b.k WHERE b.flag = 1;\n"
                        + "INSERT INTO TABLE ind.out_t SELECT max(a.x) FROM ind.a a JOIN ind.b b ON a.k = b.k "
                        + "GROUP BY b.flag"))
                .then().statusCode(201).body("parseStatus", equalTo("PARSED"));
        // No run event for 1300 yet: the export still describes its queries, as an OTHER event.
        JsonPath ol = given().get("/openlineage/runs/1300").then().statusCode(200).extract().jsonPath();
        assertThat(ol.getString("eventType")).isEqualTo("OTHER");
        assertThat(ol.getList("inputs.name", String.class)).containsExactly("ind.a", "ind.b");
        assertThat(ol.getList("outputs[0].facets.columnLineage.dataset.field", String.class))
                .containsExactlyInAnyOrder("k", "k", "flag");
        assertThat(ol.getString("outputs[0].facets.columnLineage.fields.x.inputFields[0].name")).isEqualTo("ind.a");
        assertThat(ol.getList("outputs[0].facets.columnLineage.dataset.find { it.field == 'flag' }.transformations"
                + ".subtype", String.class)).containsExactly("FILTER", "GROUP_BY");
        assertThat(ol.getList("outputs[0].facets.columnLineage.dataset.findAll { it.field == 'k' }.transformations"
                + ".flatten().subtype", String.class)).containsExactly("JOIN", "JOIN");
        JsonPath impact = given().get("/lineage/tables/ind.b/impact").then().statusCode(200).extract().jsonPath();
        assertThat(impact.getList("tables", String.class)).containsExactly("ind.out_t");
        assertThat(impact.getList("processes", Integer.class)).containsExactly(13);
        JsonPath up = given().queryParam("table", "ind.out_t").queryParam("column", "x").queryParam("direction", "upstream")
                .get("/lineage/columns").then().statusCode(200).extract().jsonPath();
        assertThat(up.getList("nodes.key", String.class)).contains("ind.a.x", "ind.a.k", "ind.b.k", "ind.b.flag");
        assertThat(up.getList("edges.findAll { it.indirect }.id", String.class)).hasSize(3);
        String dot = given().queryParam("table", "ind.out_t").queryParam("column", "x").queryParam("direction", "upstream")
                .queryParam("format", "dot").get("/lineage/columns").then().statusCode(200).extract().asString();
        assertThat(dot).contains("style=\"dashed\"");
        assertThat(Graphviz.render(dot).exitCode()).isZero();
    }

    @Test
    void anUnparseableQueryIsStoredWithItsParseError() {
        String id = register(Map.of("queryType", "HIVE", "queryText", "INSERT OVERWRITE TABLE x SELECT FROM WHERE",
                "processId", 8)).then().statusCode(201).body("parseStatus", equalTo("FAILED"))
                .body("parseError", containsString("statement 1: parse error")).extract().path("id");
        given().get("/queries/" + id).then().statusCode(200).body("parseStatus", equalTo("FAILED"))
                .body("queryText", equalTo("INSERT OVERWRITE TABLE x SELECT FROM WHERE"));
        given().queryParam("processId", 8).queryParam("status", "FAILED").get("/queries").then().statusCode(200)
                .body("total", equalTo(1)).body("items[0].id", equalTo(id));
    }

    @Test
    void pigIsStoredButNotParsed() {
        register(Map.of("queryType", "PIG", "queryText", "A = LOAD 'x';", "processId", 9)).then().statusCode(201)
                .body("parseStatus", equalTo("UNSUPPORTED")).body("parseError", not(emptyOrNullString()));
    }

    @Test
    void reRegisteringTheSameQueryIdStoresItOnce() {
        String id = "5f1d2c3b-0000-4000-8000-000000000001";
        Map<String, Object> body = Map.of("queryId", id, "queryType", "SQL", "queryText",
                "INSERT INTO t2 SELECT a FROM t1", "processId", 10);
        register(body).then().statusCode(201);
        register(body).then().statusCode(201).body("id", equalTo(id));
        given().queryParam("processId", 10).get("/queries").then().body("total", equalTo(1));
    }

    /** Racing registrations of one queryId meet at its primary key; the losers are retried and answer the stored one. */
    @Test
    void concurrentRegistrationsOfOneQueryIdStoreItOnce() throws Exception {
        String id = "5f1d2c3b-0000-4000-8000-000000000002";
        Map<String, Object> body = Map.of("queryId", id, "queryType", "SQL", "queryText",
                "INSERT INTO same.t2 SELECT a, upper(b) AS b FROM same.t1", "processId", 14);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.CompletableFuture<Integer>> racing = java.util.stream.IntStream.range(0, 8)
                    .mapToObj(i -> java.util.concurrent.CompletableFuture.supplyAsync(() -> register(body).statusCode(), pool))
                    .toList();
            assertThat(racing).allSatisfy(r -> assertThat(r.get(60, TimeUnit.SECONDS)).isEqualTo(201));
        } finally {
            pool.shutdownNow();
        }
        given().queryParam("processId", 14).get("/queries").then().body("total", equalTo(1));
    }

    @Test
    void createTableStatementsTeachTheSchemaToLaterQueries() {
        register(Map.of("queryType", "HIVE", "processId", 11, "queryText",
                "CREATE TABLE ddl.src (k STRING, v INT) STORED AS ORC")).then().statusCode(201)
                .body("parseStatus", equalTo("PARSED"));
        given().get("/tables/ddl.src").then().statusCode(200).body("columns", equalTo(List.of("k", "v")))
                .body("learnedFrom", equalTo("ddl"));
        register(Map.of("queryType", "HIVE", "processId", 11, "queryText", "CREATE TABLE ddl.dst AS SELECT * FROM ddl.src"))
                .then().statusCode(201);
        given().queryParam("table", "ddl.dst").queryParam("column", "v").queryParam("direction", "upstream")
                .get("/lineage/columns").then().statusCode(200).body("nodes.key", org.hamcrest.Matchers.hasItem("ddl.src.v"));
    }

    /** Registrations sharing tables upsert the same nodes; racing ones are retried, none fails. */
    @Test
    void concurrentRegistrationsOfOverlappingQueriesAllSucceed() throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(6);
        try {
            List<java.util.concurrent.Future<Integer>> results = new java.util.ArrayList<>();
            for (int i = 0; i < 12; i++) {
                String sql = "INSERT INTO race.out_" + (i % 3) + " SELECT a, b, upper(c) AS c FROM race.in_1 JOIN race.in_2 "
                        + "ON race.in_1.k = race.in_2.k";
                results.add(pool.submit(() -> register(Map.of("queryType", "SQL", "queryText", sql, "processId", 12))
                        .statusCode()));
            }
            for (java.util.concurrent.Future<Integer> r : results) {
                assertThat(r.get(60, TimeUnit.SECONDS)).isEqualTo(201);
            }
        } finally {
            pool.shutdownNow();
        }
        given().queryParam("processId", 12).get("/queries").then().body("total", equalTo(12));
    }

    @Test
    void invalidRequestsAreProblemsWithCodes() {
        register(Map.of("queryType", "HIVE", "queryText", "SELECT 1")).then().statusCode(400)
                .contentType(containsString("application/problem+json")).body("code", equalTo(1));
        register(Map.of("queryType", "COBOL", "queryText", "x", "processId", 1)).then().statusCode(400);
        given().queryParam("table", "nope.nope").queryParam("column", "c").get("/lineage/columns").then()
                .statusCode(404).body("code", equalTo(503));
        given().queryParam("table", "a.b.c").queryParam("column", "c").get("/lineage/columns").then()
                .statusCode(400).body("code", equalTo(506));
        given().queryParam("table", "x.y").queryParam("column", "c").queryParam("format", "png")
                .get("/lineage/columns").then().statusCode(400).body("code", equalTo(1));
        given().get("/queries/00000000-0000-4000-8000-000000000000").then().statusCode(404).body("code", equalTo(501));
        given().get("/lineage/batches/987654321").then().statusCode(404).body("code", equalTo(502))
                .body("title", equalTo("Invalid Target BatchId"));
        given().get("/queries?limit=0").then().statusCode(400);
        given().queryParam("table", "x.y").queryParam("column", "c").queryParam("depth", 0).get("/lineage/columns")
                .then().statusCode(400).body("code", equalTo(1));
        given().queryParam("table", "x.y").queryParam("column", "c").queryParam("direction", "sideways")
                .get("/lineage/columns").then().statusCode(400).body("code", equalTo(1));
        given().contentType(ContentType.JSON).body(Map.of("columns", List.of("ok", "not ok")))
                .put("/tables/x.y").then().statusCode(400).body("code", equalTo(506));
    }

    private static io.restassured.response.Response register(Map<String, ?> body) {
        return given().contentType(ContentType.JSON).body(body).post("/queries");
    }
}
