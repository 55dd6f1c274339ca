package io.batchyard.lineage;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.fuzz.RestFuzzer;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Thousands of generated bad requests against every operation of the OpenAPI document: the error contract holds. */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "lineage"))
class RestFuzzTest {

    @Test
    void everyBadRequestIsAProblemAndChangesNothing() throws Exception {
        given().contentType(ContentType.JSON).body(Map.of("columns", List.of("id", "name")))
                .put("/tables/fuzz.source").then().statusCode(200);
        String query = given().contentType(ContentType.JSON).body(Map.of("queryType", "HIVE", "processId", 77,
                        "instanceExecId", 770, "queryText",
                        "INSERT OVERWRITE TABLE fuzz.target SELECT s.id, upper(s.name) FROM fuzz.source s"))
                .post("/queries").then().statusCode(201).extract().jsonPath().getString("id");

        RestFuzzer.Report report = new RestFuzzer(RestFuzzer.forQuarkusTest(RestAssured.port,
                Map.of("/queries/{id}", List.of(query), "table", List.of("fuzz.source", "fuzz.target"),
                        "instanceExecId", List.of("770"), "processId", List.of("77")), Set.of())).run();

        assertThat(report.requests()).isGreaterThan(2_000);
        assertThat(report.failures()).isEmpty();
    }
}
