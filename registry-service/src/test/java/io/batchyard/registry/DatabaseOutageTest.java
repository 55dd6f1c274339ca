package io.batchyard.registry;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.ConnectionTerminator;
import io.batchyard.teststack.Infrastructure;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Connections the database drops under the service (as {@code pg_terminate_backend} does) are the database being
 * unavailable, not a server bug: the answer is 503 problem+json with Retry-After, never a 500.
 */
@RegistryTest
class DatabaseOutageTest {

    @Test
    void aDroppedConnectionIsA503WithRetryAfter() throws Exception {
        List<Integer> statuses = new ArrayList<>();
        Response unavailable = null;
        for (int round = 0; round < 3; round++) {
            given().get("/applications").then().statusCode(200);
            // The reactive pool evicts a connection as soon as the database ends it, so idle connections terminated
            // between requests are never met: the connections are terminated while the requests run.
            try (ConnectionTerminator terminator = ConnectionTerminator.every(Duration.ofMillis(2),
                    Infrastructure.get(), BatchyardTestStack.database())) {
                for (int i = 0; i < 4; i++) {
                    Response r = given().get("/applications");
                    statuses.add(r.statusCode());
                    if (r.statusCode() == 503) {
                        unavailable = r;
                    }
                }
            }
            // The last round of terminations may still be on its way to the pool: give it time to hear of them.
            Thread.sleep(200);
        }
        System.out.println("[outage] statuses after terminated connections: " + statuses);

        assertThat(statuses).allMatch(s -> s == 200 || s == 503);
        assertThat(unavailable).as("some request met a dropped connection").isNotNull();
        assertThat(unavailable.contentType()).startsWith("application/problem+json");
        assertThat(unavailable.header("Retry-After")).isEqualTo("5");
        assertThat(unavailable.jsonPath().getInt("code")).isEqualTo(4);
        given().get("/applications").then().statusCode(200);
    }
}
