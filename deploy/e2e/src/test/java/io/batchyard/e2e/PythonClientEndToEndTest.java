package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.e2e.RegistryFixtures.Job;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.identity.Identity;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A job written in Python (client/python: the standard library only, no Batchyard code outside the package) runs
 * against the packaged services with an operator's token, through the example script client/python/examples/job.py:
 * a run that halts and hands its batch downstream, a run whose work raises (TermStep, then TermJob carrying the
 * exception's text, which the run and JobFailed keep, and the exception reaching the script), a refused call whose
 * numeric code the script reads off the exception, and the halted run as lineage-service answers for it.
 */
class PythonClientEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Path EXAMPLE = Path.of("..", "..", "client", "python", "examples").toAbsolutePath()
            .normalize();

    private static Stack stack;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
    }

    @Test
    void aPythonJobHaltsFailsWithItsErrorAndSeesTheCodeOfARefusal() throws Exception {
        if (!ExternalCommands.onPath("python3")) {
            System.out.println("[skip] python3 is not installed: the Python client is not run");
            return;
        }
        // The job's own identity owns the application, so its operator role may run the application's jobs.
        String token = Identity.get().token("python-job", "developer", "operator");
        long app = RegistryFixtures.applicationOwnedBy(stack, token, "python");
        RegistryFixtures.Chain chain = RegistryFixtures.chain(stack, app, WAIT);
        Job upstream = chain.upstream();
        Job downstream = chain.downstream();
        Job failing = RegistryFixtures.job(stack, app, List.of());
        RegistryFixtures.awaitKnown(stack, failing.step(), failing.parent(), WAIT);

        long haltedRun;
        try (EventProbe lifecycle = EventProbe.on(stack.kafka(), Topics.EXECUTION_LIFECYCLE);
             EventProbe batches = EventProbe.on(stack.kafka(), Topics.QUEUE_BATCHES)) {
            // (a) a lifecycle that halts: the run's batch goes downstream with the marking the block gave HaltJob
            JsonPath halted = script(token, "halt", upstream.parent(), upstream.step(), "2024-09-01");
            assertThat(halted.getString("state")).isEqualTo("SUCCESS");
            assertThat(halted.getString("batchMarking")).isEqualTo("2024-09-01");
            assertThat(halted.getLong("fileBatchId")).isPositive();
            haltedRun = halted.getLong("instanceExecId");
            JobHalted event = lifecycle.await(JobHalted.class, e -> e.getInstanceExecId() == haltedRun, WAIT).event();
            assertThat(event.getProcessId()).isEqualTo(upstream.parent());
            assertThat(event.getHeader().getActor()).isEqualTo("python-job");
            assertThat(event.getTargetBatchId()).isEqualTo(halted.getLong("targetBatchId"));
            BatchEnqueued enqueued = batches.await(BatchEnqueued.class,
                    e -> e.getConsumerProcessId() == downstream.step(), WAIT).event();
            assertThat(enqueued.getSourceBatchId()).isEqualTo(halted.getLong("targetBatchId"));

            // (b) a failed job: the exception's text is TermJob's, kept on the run and sent with JobFailed
            String why = "no rows for 2024-09-02 in sales.orders";
            JsonPath failed = script(token, "fail", failing.parent(), failing.step(), why);
            assertThat(failed.getString("raised")).isEqualTo("RuntimeError");
            assertThat(failed.getString("message")).isEqualTo(why);
            assertThat(failed.getString("state")).isEqualTo("FAILED");
            long failedRun = failed.getLong("instanceExecId");
            JobFailed jobFailed = lifecycle.await(JobFailed.class, e -> e.getInstanceExecId() == failedRun, WAIT)
                    .event();
            assertThat(jobFailed.getProcessId()).isEqualTo(failing.parent());
            assertThat(jobFailed.getErrorText()).isEqualTo("RuntimeError: " + why);
            assertThat(jobFailed.getHeader().getActor()).isEqualTo("python-job");
            JsonPath kept = given().baseUri(stack.execution.url()).get("/runs/" + failedRun).then().statusCode(200)
                    .extract().jsonPath();
            assertThat(kept.getString("run.state")).isEqualTo("FAILED");
            assertThat(kept.getString("run.failureText")).isEqualTo("RuntimeError: " + why);
            assertThat(kept.getMap("steps.find { it.processId == " + failing.step() + " }"))
                    .containsEntry("state", "FAILED");
        }

        // (c) a refused call: InitStep of a step whose parent is not running; the code is the exception's attribute
        JsonPath refused = script(token, "refused", failing.step());
        assertThat(refused.getString("error")).isEqualTo("ProblemError");
        assertThat(refused.getInt("status")).isEqualTo(409);
        assertThat(refused.getInt("code")).isEqualTo(108);
        assertThat(refused.getString("title")).isEqualTo("The parent process is not running");

        // Lineage queries: lineage-service follows the lifecycle events, so the halted run shows up there shortly.
        await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                assertThat(script(token, "lineage", upstream.parent()).getList("runs.instanceExecId", Long.class))
                        .contains(haltedRun));
    }

    /** Runs the example script with the stack's endpoints and {@code token}; answers the JSON line it printed last. */
    private static JsonPath script(String token, Object... args) throws IOException, InterruptedException {
        Map<String, String> env = new HashMap<>();
        env.put("BATCHYARD_TOKEN", token);
        env.put("BATCHYARD_EXECUTION_URL", stack.execution.url());
        env.put("BATCHYARD_QUEUE_URL", stack.queue.url());
        env.put("BATCHYARD_REGISTRY_URL", stack.registry.url());
        env.put("BATCHYARD_LINEAGE_URL", stack.lineage.url());
        env.put("BATCHYARD_CLIENT_CONFIG", EXAMPLE.resolve("no-such-file.properties").toString());
        List<String> command = new java.util.ArrayList<>(List.of("python3", "job.py"));
        for (Object a : args) {
            command.add(String.valueOf(a));
        }
        String out = ExternalCommands.run(EXAMPLE, command, env, Duration.ofSeconds(60));
        List<String> lines = out.lines().filter(l -> l.startsWith("{")).toList();
        assertThat(lines).as(out).isNotEmpty();
        return new JsonPath(lines.get(lines.size() - 1));
    }
}
