package io.batchyard.lineage;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.teststack.BatchyardTestStack;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.batchyard.teststack.Infrastructure;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;

/** The skeleton boots against real PostgreSQL and Kafka, migrates its outbox tables and reports ready. */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "lineage"))
class LineageServiceBootTest {

    @Test
    void bootsMigratedAndReady() throws Exception {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        long tables;
        Infrastructure.Database db = BatchyardTestStack.database();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             ResultSet rs = c.createStatement().executeQuery(
                     "SELECT count(*) FROM information_schema.tables WHERE table_name IN ('outbox_event', 'processed_event')")) {
            rs.next();
            tables = rs.getLong(1);
        }
        org.assertj.core.api.Assertions.assertThat(tables).isEqualTo(2);
    }
}
