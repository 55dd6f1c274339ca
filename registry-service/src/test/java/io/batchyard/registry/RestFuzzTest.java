package io.batchyard.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.teststack.fuzz.RestFuzzer;
import io.restassured.RestAssured;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Thousands of generated bad requests against every operation of the OpenAPI document: the error contract holds. */
@RegistryTest
class RestFuzzTest {

    @Test
    void everyBadRequestIsAProblemAndChangesNothing() throws Exception {
        long app = Fixtures.application();
        long parent = Fixtures.parent(app, Fixtures.SEMANTIC);
        long step = Fixtures.step(app, parent, Fixtures.HIVE);
        List<String> processes = List.of(Long.toString(parent), Long.toString(step));

        RestFuzzer.Report report = new RestFuzzer(RestFuzzer.forQuarkusTest(RestAssured.port,
                Map.of("/processes/{id}", processes, "processId", processes,
                        "/applications/{id}", List.of(Long.toString(app))), Set.of())).run();

        assertThat(report.requests()).isGreaterThan(2_000);
        assertThat(report.failures()).isEmpty();
    }
}
