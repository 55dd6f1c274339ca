package io.batchyard.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.teststack.fuzz.RestFuzzer;
import io.restassured.RestAssured;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Thousands of generated bad requests against every operation of the OpenAPI document: the error contract holds.
 * Ids of runs and processes come from the service's own list endpoints (filled by the other tests of the module when
 * they run first).
 */
@ExecutionTest
class RestFuzzTest {

    @Test
    void everyBadRequestIsAProblemAndChangesNothing() throws Exception {
        RestFuzzer.Report report = new RestFuzzer(RestFuzzer.forQuarkusTest(RestAssured.port, Map.of(), Set.of()))
                .run();

        assertThat(report.requests()).isGreaterThan(2_000);
        assertThat(report.failures()).isEmpty();
    }
}
