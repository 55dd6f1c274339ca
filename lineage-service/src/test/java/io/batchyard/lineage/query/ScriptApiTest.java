package io.batchyard.lineage.query;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.batchyard.teststack.BatchyardTestStack;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Whole Hive scripts registered over REST against real PostgreSQL: one stored row per lineage statement, variables,
 * USE, multi-insert and virtual columns.
 */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "lineage"))
class ScriptApiTest {

    private static final String SCRIPT = """
            -- nightly load; run with --hivevar src=... --hiveconf run_date=...
            SET hive.exec.dynamic.partition.mode=nonstrict;
            ADD JAR /opt/udfs.jar;
            USE ${hivevar:src};
            INSERT OVERWRITE TABLE scr_dw.customers_by_day PARTITION (dt='${hiveconf:run_date}')
            SELECT id, upper(name) AS name FROM customers WHERE name <> 'a;b';
            FROM orders o
            INSERT OVERWRITE TABLE scr_dw.big_orders SELECT o.id, o.amount WHERE o.amount > 100
            INSERT OVERWRITE TABLE scr_dw.order_files SELECT o.id, INPUT__FILE__NAME AS file, GROUPING__ID AS g
            """;

    @Test
    void aScriptIsStoredOneRowPerLineageStatementInOrderWithItsVariablesSubstituted() {
        given().contentType(ContentType.JSON).body(Map.of("columns", List.of("id", "amount", "note")))
                .put("/tables/scr_src.orders").then().statusCode(200);
        JsonPath q = register(Map.of("queryType", "HIVE", "queryText", SCRIPT, "processId", 41, "instanceExecId", 4100,
                "variables", Map.of("hivevar:src", "scr_src", "run_date", "2024-05-01")))
                .then().statusCode(201).body("parseStatus", equalTo("PARSED")).extract().jsonPath();
        // SET, ADD JAR and USE (statements 1-3) are not rows; the numbers stay those of the script.
        assertThat(q.getList("statements.index", Integer.class)).containsExactly(4, 5);
        assertThat(q.getString("statements[0].text")).isEqualTo("INSERT OVERWRITE TABLE scr_dw.customers_by_day "
                + "PARTITION (dt='2024-05-01') SELECT id, upper(name) AS name FROM customers WHERE name <> 'a;b'");
        assertThat(q.getList("statements.defaultDatabase", String.class)).containsExactly("scr_src", "scr_src");
        assertThat(q.getList("statements.parseStatus", String.class)).containsExactly("PARSED", "PARSED");
        assertThat(q.getString("queryText")).isEqualTo(SCRIPT);

        JsonPath read = given().get("/queries/" + q.getString("id")).then().statusCode(200).extract().jsonPath();
        assertThat(read.getList("statements.text", String.class)).isEqualTo(q.getList("statements.text", String.class));
        given().queryParam("instanceExecId", 4100).get("/queries").then().statusCode(200).body("total", equalTo(1))
                .body("items[0].statements.index", equalTo(List.of(4, 5)));

        // Multi-insert: every target has its lineage from the shared source.
        JsonPath impact = given().get("/lineage/tables/scr_src.orders/impact").then().statusCode(200)
                .extract().jsonPath();
        assertThat(impact.getList("tables", String.class))
                .containsExactlyInAnyOrder("scr_dw.big_orders", "scr_dw.order_files");
        given().queryParam("table", "scr_dw.big_orders").queryParam("column", "amount")
                .queryParam("direction", "upstream").get("/lineage/columns").then().statusCode(200)
                .body("nodes.key", hasItem("scr_src.orders.amount"));
        given().queryParam("table", "scr_dw.customers_by_day").queryParam("column", "name")
                .queryParam("direction", "upstream").get("/lineage/columns").then().statusCode(200)
                .body("nodes.key", hasItem("scr_src.customers.name"));

        // Virtual columns are built-ins: the source table gains no column of their names, and 'note' stays idle.
        JsonPath orders = given().get("/lineage/tables/scr_src.orders").then().statusCode(200).extract().jsonPath();
        assertThat(orders.getList("nodes.name", String.class))
                .doesNotContain("input__file__name", "grouping__id");
        assertThat(orders.getList("nodes.findAll { it.type == 'IDLE_COLUMN' }.name", String.class))
                .containsExactly("note");
        JsonPath file = given().queryParam("table", "scr_dw.order_files").queryParam("column", "file")
                .queryParam("direction", "upstream").get("/lineage/columns").then().statusCode(200)
                .extract().jsonPath();
        assertThat(file.getList("nodes.type", String.class)).contains("FUNCTION");
        assertThat(file.getList("nodes.key", String.class)).noneMatch(k -> k.startsWith("scr_src."));
    }

    @Test
    void anUnresolvedVariableIsAWarningAndAnOpaqueNameNotAFailure() {
        register(Map.of("queryType", "HIVE", "processId", 42, "queryText",
                "INSERT INTO scr_dw.t SELECT a FROM ${hivevar:db}.s WHERE d = ${hiveconf:dt}"))
                .then().statusCode(201).body("parseStatus", equalTo("PARSED"))
                .body("warnings", hasItem(containsString("variable ${hivevar:db} has no value")))
                .body("warnings", hasItem(containsString("variable ${hiveconf:dt} has no value")))
                .body("statements[0].text",
                        equalTo("INSERT INTO scr_dw.t SELECT a FROM `${hivevar:db}`.s WHERE d = '${hiveconf:dt}'"));
    }

    @Test
    void aFailingStatementIsStoredWithItsErrorBesideTheOnesThatParsed() {
        register(Map.of("queryType", "HIVE", "processId", 43, "instanceExecId", 4300, "queryText",
                "USE scr_x; INSERT INTO t2 SELECT a FROM t1; INSERT INTO t3 SELECT FROM WHERE; DROP TABLE t1"))
                .then().statusCode(201).body("parseStatus", equalTo("FAILED"))
                .body("parseError", containsString("statement 3: parse error"))
                .body("statements.index", equalTo(List.of(2, 3)))
                .body("statements.parseStatus", equalTo(List.of("PARSED", "FAILED")))
                .body("statements[0].parseError", equalTo(null))
                .body("statements[1].parseError", containsString("parse error"));
    }

    @Test
    void badVariablesAreProblemsWithACodeAndStoreNothing() {
        Map<String, Object> base = Map.of("queryType", "HIVE", "processId", 44, "queryText", "SELECT 1");
        for (Object variables : List.of(Map.of("not a name", "x"), Map.of("nope:x", "x"), "not a map", List.of("x"),
                Map.of("x", Map.of("y", "z")))) {
            Map<String, Object> body = new HashMap<>(base);
            body.put("variables", variables);
            register(body).then().statusCode(400).contentType(containsString("application/problem+json"))
                    .body("code", equalTo(1));
        }
        Map<String, Object> nullValue = new HashMap<>(base);
        Map<String, Object> withNull = new HashMap<>();
        withNull.put("x", null);
        nullValue.put("variables", withNull);
        register(nullValue).then().statusCode(400).body("code", equalTo(1));
        given().queryParam("processId", 44).get("/queries").then().statusCode(200).body("total", equalTo(0));
    }

    private static io.restassured.response.Response register(Map<String, ?> body) {
        return given().contentType(ContentType.JSON).body(body).post("/queries");
    }
}
