package io.batchyard.execution;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.fuzz.RestFuzzer;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Thousands of generated bad requests against every operation of the OpenAPI document: the error contract holds.
 * A registered parent with one step and a running run give the lifecycle and run endpoints real ids.
 */
@ExecutionTest
class RestFuzzTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void everyBadRequestIsAProblemAndChangesNothing() throws Exception {
        long parent = ExecutionFixtures.id();
        long step = ExecutionFixtures.id();
        ExecutionFixtures.register(bootstrap, ProcessTrees.parent(parent).next(step).step(step, s -> s.next(parent)));
        long run = given().contentType(ContentType.JSON).body(Map.of("maxBatch", 1)).post("/jobs/" + parent + "/init")
                .then().statusCode(200).extract().jsonPath().getLong("instanceExecId");
        List<String> parents = List.of(Long.toString(parent));
        List<String> steps = List.of(Long.toString(step));

        RestFuzzer.Report report = new RestFuzzer(RestFuzzer.forQuarkusTest(RestAssured.port,
                Map.of("pid", parents, "sid", steps, "sids", steps, "processId", parents,
                        "/process-definitions/{id}", List.of(Long.toString(parent), Long.toString(step)),
                        "/runs/{id}", List.of(Long.toString(run)), "ie", List.of(Long.toString(run))),
                Set.of())).run();

        assertThat(report.requests()).isGreaterThan(2_000);
        assertThat(report.failures()).isEmpty();
    }
}
