package io.batchyard.execution.lifecycle;

import static io.batchyard.execution.ExecutionFixtures.WAIT;
import static io.batchyard.execution.ExecutionFixtures.id;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.events.LifecycleCommandType;
import io.batchyard.events.execution.CommandRejected;
import io.batchyard.events.execution.LifecycleCommand;
import io.batchyard.execution.ExecutionFixtures;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.StubQueue;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Lifecycle calls need execute permission on the process's application, as registry-service announces it: the owner
 * (7) may run the job, "others" with read (4) may not, over REST and over Kafka alike; an application whose
 * permissions were never announced is for administrators only: to anyone else its job does not exist (102).
 */
@ExecutionTest
class ExecutePermissionTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    private final String olga = Identity.get().token("olga", Set.of("operator"), Set.of("ops"));
    private final String oscar = Identity.get().token("oscar", Set.of("operator"), Set.of());
    private final String otto = Identity.get().token("otto", Set.of("operator"), Set.of("ops"));

    @Test
    void theOwnerRunsTheJobOthersWithReadOnlyAreRefused() {
        long app = 9_000 + System.nanoTime() % 1_000, p = id(), s1 = id();
        try (ExecutionFixtures f = new ExecutionFixtures(bootstrap);
             EventProbe rejections = EventProbe.on(bootstrap, Topics.EXECUTION_REJECTIONS)) {
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + app,
                    ProcessTrees.application(app, "olga", "ops", 7, 4, 4));
            f.register(ProcessTrees.parent(p).application(app).next(s1).step(s1, s -> s.next(p)));

            given().auth().oauth2(oscar).contentType("application/json").body("{\"maxBatch\":1}")
                    .post("/jobs/" + p + "/init").then().statusCode(403).body("code", equalTo(14));
            given().auth().oauth2(otto).contentType("application/json").body("{\"maxBatch\":1}")
                    .post("/jobs/" + p + "/init").then().statusCode(403).body("code", equalTo(14));
            LifecycleCommand init = LifecycleCommand.newBuilder().setHeader(Events.header("job", null, null))
                    .setCommand(LifecycleCommandType.INIT_JOB).setProcessId(p).setMaxBatch(1).setBatchMarking(null)
                    .build();
            f.publisher.publishAs("Bearer " + oscar, Topics.EXECUTION_COMMANDS, p, init);
            var rejected = rejections.await(CommandRejected.class,
                    e -> init.getHeader().getEventId().equals(e.getHeader().getCorrelationId()), WAIT);
            assertThat(rejected.event().getCode()).isEqualTo(14);
            given().queryParam("processId", p).get("/runs").then().body("total", equalTo(0));

            // operating the job's stand-alone runs needs execute too
            given().auth().oauth2(oscar).post("/runner/processes/" + p + "/launch").then().statusCode(403)
                    .body("code", equalTo(14));
            given().auth().oauth2(oscar).contentType("application/json")
                    .body("{\"from\":\"20260101\",\"to\":\"20260102\"}").post("/runner/processes/" + p + "/backfill").then()
                    .statusCode(403).body("code", equalTo(14));
            given().auth().oauth2(olga).post("/runner/processes/" + p + "/launch").then()
                    .statusCode(org.hamcrest.Matchers.not(org.hamcrest.Matchers.anyOf(equalTo(401), equalTo(403))));

            given().auth().oauth2(olga).contentType("application/json").body("{\"maxBatch\":1}")
                    .post("/jobs/" + p + "/init").then().statusCode(200);
            // queue-service was asked for the batches with execution-service's own identity, not olga's token
            assertThat(StubQueue.authorizationOfLastClaim(p))
                    .isEqualTo("Bearer " + Identity.get().serviceToken("execution"));
            given().auth().oauth2(oscar).post("/steps/" + s1 + "/init").then().statusCode(403)
                    .body("code", equalTo(14));
            given().auth().oauth2(olga).post("/steps/" + s1 + "/init").then().statusCode(200);

            // the owner widens the group's permission to 7: a member of "ops" may now halt the step
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + app,
                    ProcessTrees.application(app, "olga", "ops", 7, 7, 4));
            await().atMost(WAIT).untilAsserted(() -> given().auth().oauth2(otto).post("/steps/" + s1 + "/halt")
                    .then().statusCode(200));
        }
    }

    @Test
    void anApplicationNeverAnnouncedIsOnlyForAdministrators() {
        long app = 8_000 + System.nanoTime() % 1_000, p = id(), s1 = id();
        try (ExecutionFixtures f = new ExecutionFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(p).application(app).next(s1).step(s1, s -> s.next(p)));
            given().auth().oauth2(olga).contentType("application/json").body("{\"maxBatch\":1}")
                    .post("/jobs/" + p + "/init").then().statusCode(422).body("code", equalTo(102))
                    .body("detail", equalTo("Invalid parent-process. pid=" + p));
            given().contentType("application/json").body("{\"maxBatch\":1}").post("/jobs/" + p + "/init").then()
                    .statusCode(200);
        }
    }
}
