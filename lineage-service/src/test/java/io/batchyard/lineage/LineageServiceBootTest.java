package io.batchyard.lineage;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.Management;
import io.batchyard.teststack.PrometheusText;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.batchyard.teststack.Infrastructure;
import java.sql.Connection;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;

/**
 * The skeleton boots against real PostgreSQL and Kafka, migrates its outbox tables and reports ready; health, metrics
 * and OpenAPI answer on the management interface only.
 */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "lineage"))
class LineageServiceBootTest {

    @Test
    void bootsMigratedAndReady() throws Exception {
        given().noFilters().baseUri(Management.ofApplicationUnderTest().ready().toString()).get()
                .then().statusCode(200).body("status", equalTo("UP"));
        long tables;
        Infrastructure.Database db = BatchyardTestStack.database();
        try (Connection c = db.connect();
             ResultSet rs = c.createStatement().executeQuery(
                     "SELECT count(*) FROM information_schema.tables WHERE table_name IN ('outbox_event', 'processed_event')")) {
            rs.next();
            tables = rs.getLong(1);
        }
        assertThat(tables).isEqualTo(2);
    }

    @Test
    void healthMetricsAndOpenApiAnswerOnTheManagementPortOnly() {
        Management management = Management.ofApplicationUnderTest();
        assertThat(management.root().getPort()).as("a port of its own").isNotEqualTo(io.restassured.RestAssured.port);
        // Without a token, on the management port: the meters, the document and the health checks.
        assertThat(PrometheusText.parse(management.metricsText())).isNotEmpty();
        assertThat(management.openApiDocument().path("info").path("title").asText())
                .isEqualTo("Batchyard lineage-service");
        assertThat(Management.status(management.live())).isEqualTo(200);
        // The main port, which the Ingress publishes, serves none of them: the 404 of a path that does not exist.
        for (String path : new String[] {"/q/metrics", "/q/openapi", "/q/openapi?format=json", "/q/health/ready"}) {
            given().noFilters().get(path).then().statusCode(404)
                    .contentType(startsWith("application/problem+json")).body("code", equalTo(2));
        }
    }
}
