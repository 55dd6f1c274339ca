package io.batchyard.execution.deployment;

import static io.batchyard.execution.ExecutionFixtures.WAIT;
import static io.batchyard.execution.ExecutionFixtures.id;
import static io.batchyard.execution.ExecutionFixtures.register;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;

import io.batchyard.persistence.Blocking;
import io.batchyard.events.execution.DeploymentChanged;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The deployment queue through its REST API and the poller, with real deployment scripts. */
@ExecutionTest
class DeploymentQueueTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @ConfigProperty(name = "batchyard.runner.script-dir")
    String scriptDir;

    @Inject
    DeployPoller poller;

    @Inject
    DeploymentService service;

    Path work;

    @BeforeEach
    void open() throws IOException {
        work = Files.createTempDirectory("batchyard-deploy-test");
    }

    @Test
    void aDeploymentWhoseScriptSucceedsIsPickedRunAndSucceeds() {
        long p = parent();
        script(type(p), "echo \"$1 $2 $BATCHYARD_DEPLOYMENT_ID ${BATCHYARD_SECRETS_KEY:-no-secret}\" > " + work.resolve("args"));
        long id = request(p).statusCode(201).body("status", equalTo("NOT_STARTED"))
                .body("processId", equalTo((int) p)).body("deployScriptLocation", equalTo("process-type-" + type(p) + ".sh"))
                .extract().jsonPath().getLong("deploymentId");
        assertThat(Blocking.await(() -> service.latestDeploymentSucceeded(p))).isFalse();

        deployUntilEnded(id);

        given().get("/deployments/" + id).then().statusCode(200).body("status", equalTo("SUCCESS"))
                .body("startTs", notNullValue()).body("endTs", notNullValue());
        assertThat(lines("args")).containsExactly(id + " " + p + " " + id + " no-secret");
        given().get("/processes/" + p + "/deployments/latest").then().statusCode(200)
                .body("deploymentId", equalTo((int) id)).body("status", equalTo("SUCCESS"));
        assertThat(Blocking.await(() -> service.latestDeploymentSucceeded(p))).isTrue();
        given().queryParam("status", "SUCCESS").get("/processes/" + p + "/deployments").then().statusCode(200)
                .body("total", equalTo(1)).body("items[0].deploymentId", equalTo((int) id));
        given().queryParam("status", "1").get("/processes/" + p + "/deployments").then().statusCode(200)
                .body("total", equalTo(0));
    }

    @Test
    void aFailingScriptFailsTheDeploymentWithItsExitCodeAndErrorOutput() {
        long p = parent();
        script(type(p), "echo 'cluster unreachable' >&2; exit 3");
        long id = requestedId(p);

        deployUntilEnded(id);

        given().get("/deployments/" + id).then().statusCode(200).body("status", equalTo("FAIL"))
                .body("message", equalTo("exit code 3: cluster unreachable"));
        assertThat(Blocking.await(() -> service.latestDeploymentSucceeded(p))).isFalse();
    }

    @Test
    void everyTransitionIsPublishedOnTheDeploymentsTopicKeyedByTheProcess() {
        long ok = parent();
        script(type(ok), "true");
        long failing = parent();
        script(type(failing), "echo 'no cluster' >&2; exit 2");
        long okId = requestedId(ok);
        long failId = requestedId(failing);

        deployUntilEnded(okId);
        deployUntilEnded(failId);

        try (EventProbe probe = EventProbe.on(bootstrap, Topics.EXECUTION_DEPLOYMENTS)) {
            probe.await(DeploymentChanged.class, e -> e.getDeploymentId() == failId && "FAIL".equals(e.getStatus()), WAIT);
            probe.await(DeploymentChanged.class, e -> e.getDeploymentId() == okId && "SUCCESS".equals(e.getStatus()), WAIT);
            List<EventProbe.Received<DeploymentChanged>> okEvents =
                    probe.received(DeploymentChanged.class, e -> e.getDeploymentId() == okId);
            assertThat(okEvents).extracting(r -> r.event().getPreviousStatus() + "->" + r.event().getStatus())
                    .containsExactly("null->NOT_STARTED", "NOT_STARTED->PICKED", "PICKED->RUNNING", "RUNNING->SUCCESS");
            assertThat(okEvents).allSatisfy(r -> {
                assertThat(r.key()).isEqualTo(String.valueOf(ok));
                assertThat(r.event().getProcessId()).isEqualTo(ok);
                assertThat(r.event().getReason()).isNull();
                assertThat(r.event().getHeader().getProducer()).isEqualTo("execution-service");
            });
            List<DeploymentChanged> failEvents = probe.received(DeploymentChanged.class, e -> e.getDeploymentId() == failId)
                    .stream().map(EventProbe.Received::event).toList();
            assertThat(failEvents).extracting(DeploymentChanged::getStatus)
                    .containsExactly("NOT_STARTED", "PICKED", "RUNNING", "FAIL");
            assertThat(failEvents.get(3).getReason()).isEqualTo("exit code 2: no cluster");
        }
    }

    @Test
    void refusedCallsPublishNothing() {
        long p = parent();
        long id = requestedId(p);
        refused("halt", id, 409, 423, "The process is not deploying: " + id);

        try (EventProbe probe = EventProbe.on(bootstrap, Topics.EXECUTION_DEPLOYMENTS)) {
            probe.await(DeploymentChanged.class, e -> e.getDeploymentId() == id, WAIT);
            assertThat(probe.all(DeploymentChanged.class, e -> e.getDeploymentId() == id, Duration.ofSeconds(1)))
                    .extracting(DeploymentChanged::getStatus).containsExactly("NOT_STARTED");
        }
    }

    @Test
    void aMissingScriptFailsTheDeploymentOfAnOozieParentWithTheReason() {
        long p = parent();
        long id = requestedId(p);

        deployUntilEnded(id);

        given().get("/deployments/" + id).then().statusCode(200).body("status", equalTo("FAIL"))
                .body("message", startsWith("not started: script 'process-type-" + type(p) + ".sh' not found"))
                .body("message", endsWith("; only a stand-alone parent (workflow type 2) deploys without its process "
                        + "type's script"));
    }

    /**
     * The no-script rule: a stand-alone parent whose process type has no deployment script is deployed by the
     * service, which checks that every step's script is in the script directory, and succeeds (before, every such
     * deployment failed with "script … not found", so a trigger could never start it).
     */
    @Test
    void aStandAloneParentWithoutADeploymentScriptIsDeployedOnceItsStepsScriptsAreThere() throws IOException {
        long p = id(), s1 = id(), s2 = id();
        Path steps = Files.createDirectories(Path.of(scriptDir).toAbsolutePath().resolve("deploy-test-" + p));
        String first = "deploy-test-" + p + "/first.sh", second = "deploy-test-" + p + "/second.sh";
        register(bootstrap, ProcessTrees.parent(p).processType(type(p)).workflowType(2).next(s1)
                .step(s1, st -> st.property("script", "run", first).next(s2))
                .step(s2, st -> st.property("script", "run", second + " --all").next(p)));
        Path firstScript = Files.writeString(steps.resolve("first.sh"), "#!/bin/sh\ntrue\n");
        Files.setPosixFilePermissions(firstScript, PosixFilePermissions.fromString("rwxr-xr-x"));

        // the second step's script is missing: the deployment fails and names it
        long missing = requestedId(p);
        deployUntilEnded(missing);
        given().get("/deployments/" + missing).then().statusCode(200).body("status", equalTo("FAIL"))
                .body("message", equalTo("no process-type-" + type(p) + ".sh in the script directory "
                        + Path.of(scriptDir).toAbsolutePath().normalize() + ": execution-service deployed the "
                        + "stand-alone parent itself and found it cannot run: step scripts not found: step " + s2
                        + ": '" + second + " --all'"));
        assertThat(Blocking.await(() -> service.latestDeploymentSucceeded(p))).isFalse();

        // with every script there the deployment succeeds, saying what it did, and the parent counts as deployed
        Files.copy(firstScript, steps.resolve("second.sh"));
        long id = requestedId(p);
        deployUntilEnded(id);
        given().get("/deployments/" + id).then().statusCode(200).body("status", equalTo("SUCCESS"))
                .body("deployScriptLocation", equalTo("process-type-" + type(p) + ".sh"))
                .body("message", startsWith("no process-type-" + type(p) + ".sh in the script directory"))
                .body("message", endsWith(": execution-service deployed the stand-alone parent itself: the "
                        + "scripts of its 2 step(s) are all there, where the runner runs them (nothing to copy)"));
        assertThat(Blocking.await(() -> service.latestDeploymentSucceeded(p))).isTrue();

        // a script of its process type, when there is one, is what deploys it, as for any parent
        script(type(p), "echo 'no cluster' >&2; exit 4");
        long scripted = requestedId(p);
        deployUntilEnded(scripted);
        given().get("/deployments/" + scripted).then().statusCode(200).body("status", equalTo("FAIL"))
                .body("message", equalTo("exit code 4: no cluster"));
    }

    @Test
    void refusedCallsAnswerTheirCodeInOrderAndChangeNothing() {
        long unknown = 9_000_000_000L + id();
        for (String call : List.of("init", "halt", "term")) {
            refused(call, unknown, 404, 420, "The deployment Id is not present: " + unknown);
        }
        given().post("/processes/" + unknown + "/deployments").then().statusCode(404).body("code", equalTo(425));
        given().queryParam("status", "LOST").get("/processes/1/deployments").then().statusCode(400)
                .body("code", equalTo(1));

        // waiting: not deploying, and not picked yet for InitDeploy
        long waiting = requestedId(parent());
        refused("halt", waiting, 409, 423, "The process is not deploying: " + waiting);
        refused("term", waiting, 409, 423, "The process is not deploying: " + waiting);
        refused("init", waiting, 409, 424, "The deployment has not been picked: " + waiting);
        given().get("/deployments/" + waiting).then().body("status", equalTo("NOT_STARTED"));

        // running: its script waits for a file the test writes
        long p = parent();
        Path go = work.resolve("go");
        script(type(p), "i=0; while [ ! -f " + go + " ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done");
        long id = requestedId(p);
        CompletableFuture<Void> polling = CompletableFuture.runAsync(() -> deployUntilEnded(id));
        await().atMost(WAIT).until(() -> "RUNNING".equals(status(id)));
        refused("init", id, 409, 421, "The process is already deploying: " + id);
        touch(go);
        polling.join();

        // ended
        String endTs = given().get("/deployments/" + id).then().body("status", equalTo("SUCCESS")).extract()
                .jsonPath().getString("endTs");
        refused("init", id, 409, 422, "The process is already deployed: " + id);
        refused("halt", id, 409, 422, "The process is already deployed: " + id);
        refused("term", id, 409, 422, "The process is already deployed: " + id);
        given().get("/deployments/" + id).then().body("status", equalTo("SUCCESS")).body("endTs", equalTo(endTs))
                .body("message", equalTo(null));
    }

    @Test
    void twoPollersNeverRunOneDeploymentTwice() {
        long p = parent();
        Path runs = work.resolve("runs");
        script(type(p), "echo \"$1\" >> " + runs + "; sleep 0.2");
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ids.add(requestedId(p));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            CompletableFuture<?> a = CompletableFuture.runAsync(poller::pollOnce);
            CompletableFuture<?> b = CompletableFuture.runAsync(poller::pollOnce);
            CompletableFuture.allOf(a, b).join();
            return ids.stream().allMatch(id -> "SUCCESS".equals(status(id)));
        });
        List<String> ran = lines("runs");
        assertThat(ran).hasSize(ids.size());
        assertThat(new HashSet<>(ran)).hasSize(ids.size());
    }

    // --- fixtures

    /** A new parent whose process type is its own, so each test has a deployment script of its own. */
    private long parent() {
        long p = id();
        register(bootstrap, ProcessTrees.parent(p).processType(type(p)));
        return p;
    }

    private static int type(long parentId) {
        return (int) parentId;
    }

    private ValidatableResponse request(long p) {
        return given().post("/processes/" + p + "/deployments").then();
    }

    private long requestedId(long p) {
        return request(p).statusCode(201).extract().jsonPath().getLong("deploymentId");
    }

    private static String status(long id) {
        return given().get("/deployments/" + id).then().statusCode(200).extract().jsonPath().getString("status");
    }

    /** Polls until the deployment ended: rows other tests left waiting may come first. */
    private void deployUntilEnded(long id) {
        await().atMost(WAIT).until(() -> {
            poller.pollOnce();
            String s = status(id);
            return "SUCCESS".equals(s) || "FAIL".equals(s);
        });
    }

    private static void refused(String call, long id, int http, int code, String detail) {
        given().contentType(ContentType.JSON).body(Map.of("text", "why")).post("/deployments/" + id + "/" + call)
                .then().statusCode(http).contentType("application/problem+json").body("code", equalTo(code))
                .body("detail", equalTo(detail));
    }

    private void script(int type, String body) {
        try {
            Path dir = Files.createDirectories(Path.of(scriptDir).toAbsolutePath());
            Path p = dir.resolve(Deployment.scriptFor(type));
            Files.writeString(p, "#!/bin/sh\nset -e\n" + body + "\n");
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void touch(Path file) {
        try {
            Files.writeString(file, "go");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<String> lines(String name) {
        try {
            Path p = work.resolve(name);
            return Files.exists(p) ? Files.readAllLines(p) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
