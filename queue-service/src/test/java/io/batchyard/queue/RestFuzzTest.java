package io.batchyard.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.fuzz.RestFuzzer;
import io.restassured.RestAssured;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/** Thousands of generated bad requests against every operation of the OpenAPI document: the error contract holds. */
@QueueTest
class RestFuzzTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void everyBadRequestIsAProblemAndChangesNothing() throws Exception {
        long upstream = QueueFixtures.nextId();
        long job = QueueFixtures.nextId();
        long step = QueueFixtures.nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(upstream).next(QueueFixtures.nextId()));
            f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.enqueuedBy(upstream).next(job)));
        }
        long batch = QueueFixtures.enqueueBatch(upstream, null, "fuzz");

        RestFuzzer.Report report = new RestFuzzer(RestFuzzer.forQuarkusTest(RestAssured.port,
                Map.of("batchId", List.of(Long.toString(batch)), "targetBatchId", List.of(Long.toString(batch)),
                        "processId", List.of(Long.toString(upstream), Long.toString(job)),
                        "/process-definitions/{id}", List.of(Long.toString(job), Long.toString(step))),
                Set.of())).run();

        // the fuzzer's in-range values (0, -1, …) are accepted by PUT /admin/clock: back to real time for later tests
        RestAssured.given().delete("/admin/clock").then().statusCode(200);
        assertThat(report.requests()).isGreaterThan(2_000);
        assertThat(report.failures()).isEmpty();
    }
}
