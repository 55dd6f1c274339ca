package io.batchyard.lineage;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.teststack.BatchyardTestStack;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/** The skeleton boots against real PostgreSQL and Kafka, migrates its outbox tables and reports ready. */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "lineage"))
class LineageServiceBootTest {

    @Inject
    Jdbi jdbi;

    @Test
    void bootsMigratedAndReady() {
        given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        long tables = jdbi.withHandle(h -> h.createQuery(
                "SELECT count(*) FROM information_schema.tables WHERE table_name IN ('outbox_event', 'processed_event')")
                .mapTo(Long.class).one());
        org.assertj.core.api.Assertions.assertThat(tables).isEqualTo(2);
    }
}
