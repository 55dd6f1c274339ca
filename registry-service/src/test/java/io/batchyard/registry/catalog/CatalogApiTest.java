package io.batchyard.registry.catalog;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.registry.RegistryTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The master tables answer exactly their seeded rows, in id order. */
@RegistryTest
class CatalogApiTest {

    @Test
    void deployStatusesAreSeeded() {
        expect("/deploy-statuses", List.of(1, 2, 3, 4, 5),
                List.of("Not started", "Running", "Success", "Fail", "Picked"));
    }

    @Test
    void permissionTypesAreSeeded() {
        expect("/permission-types", List.of(0, 4, 6, 7),
                List.of("No Permission", "Read", "Read and Write", "Read,Write and Execute"));
    }

    @Test
    void lineageNodeTypesAreSeeded() {
        expect("/lineage-node-types", List.of(1, 2, 3, 4, 5, 6),
                List.of("table", "column", "function", "temp_table", "idle_column", "constant"));
    }

    @Test
    void lineageQueryTypesAreSeeded() {
        expect("/lineage-query-types", List.of(1, 2), List.of("HIVE", "PIG"));
    }

    private static void expect(String path, List<Integer> ids, List<String> names) {
        given().get(path).then().statusCode(200).contentType("application/json")
                .body("size()", equalTo(ids.size()))
                .body("id", equalTo(ids)).body("name", equalTo(names));
    }
}
