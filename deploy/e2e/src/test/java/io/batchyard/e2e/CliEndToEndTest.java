package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.cli.BatchyardCommand;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The {@code batchyard} CLI against the shared stack, as a shell step uses it: a whole lifecycle through its picocli
 * entry point in-process (what {@code main} runs, without a JVM per call), and a refusal through the wrapper script
 * and the built jar, whose exit status is the lifecycle code minus 90.
 */
class CliEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static Stack stack;
    private static long app;
    private static String token;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
        app = given().baseUri(stack.registry.url()).contentType(ContentType.JSON)
                .body(Map.of("name", "cli-" + System.nanoTime(), "description", "cli e2e", "owner", "e2e"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        token = Identity.get().adminToken();
    }

    @Test
    void aShellStepRunsTheWholeLifecycleAndARefusalExitsWithItsCode() throws Exception {
        RegistryFixtures.Chain chain = RegistryFixtures.chain(stack, app, WAIT);
        RegistryFixtures.Job job = chain.upstream();
        String parent = String.valueOf(job.parent());
        String step = String.valueOf(job.step());

        Run init = cli("init-job", parent, "--max-batch", "1", "--json");
        assertThat(init.status).as(init.err).isZero();
        JsonPath run = JsonPath.from(init.out);
        long instanceExecId = run.getLong("instanceExecId");
        assertThat(run.getMap("outputs")).containsEntry("instance-exec-id", String.valueOf(instanceExecId));

        Run initStep = cli("init-step", step);
        assertThat(initStep.status).as(initStep.err).isZero();
        assertThat(initStep.out).startsWith("step " + step + " started: run ");
        assertThat(cli("halt-step", step).out).isEqualTo("halted step " + step + "\n");
        Run halt = cli("halt-job", parent, "--batch-marking", "cli-e2e");
        assertThat(halt.status).as(halt.err).isZero();
        assertThat(halt.out).startsWith("run " + instanceExecId + " of process " + parent + ": SUCCESS")
                .contains("marking cli-e2e");

        JsonPath runs = JsonPath.from(cli("runs", "list", "--process-id", parent, "--json").out);
        assertThat(runs.getLong("items[0].instanceExecId")).isEqualTo(instanceExecId);
        assertThat(runs.getString("items[0].state")).isEqualTo("SUCCESS");

        // HaltJob handed the run's batch to the downstream step's queue (through Kafka)
        long targetBatch = run.getLong("targetBatchId");
        String downstream = String.valueOf(chain.downstream().step());
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> JsonPath.from(
                cli("queue", "list", downstream, "--json").out).getList("items.sourceBatchId", Long.class)
                .contains(targetBatch));
        assertThat(cli("queue", "list", downstream).out).startsWith("QUEUE_ID").contains(" " + targetBatch + " ")
                .contains("cli-e2e");
        Run why = cli("why", parent);
        assertThat(why.status).as(why.err).isZero();
        assertThat(why.out).contains("would not run now").contains("NOT_STAND_ALONE");
        assertThat(cli("workflow", "export", parent, "--format", "dot").out).contains("digraph");

        // HaltJob of a parent that is not running: 105, exit 15, the code and text on stderr
        Run again = cli("halt-job", parent);
        assertThat(again.status).isEqualTo(105 - 90);
        assertThat(again.err).contains("code 105 (HTTP 409)").contains("(exit 15)");
        assertThat(again.out).isEmpty();

        // The same kind of refusal from the built jar, through bin/batchyard: InitStep without a run is 108 -> 18
        Path script = Path.of("..", "..", "client", "cli", "bin", "batchyard").toAbsolutePath().normalize();
        Path err = Files.createTempFile("batchyard-cli", ".err");
        ProcessBuilder pb = new ProcessBuilder(script.toString(), "init-step", step, "--json",
                "--execution-url", stack.execution.url()).redirectError(err.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("BATCHYARD_TOKEN", token);
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the CLI jar ended").isTrue();
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(stderr).isEqualTo(108 - 90);
        JsonPath problem = JsonPath.from(stderr);
        assertThat(problem.getInt("code")).isEqualTo(108);
        assertThat(problem.getInt("exit")).isEqualTo(18);
        Files.deleteIfExists(err);
    }

    private record Run(int status, String out, String err) {
    }

    /** The CLI as {@code main} runs it, with the stack's endpoints and the admin token as flags. */
    private static Run cli(String... args) {
        List<String> argv = new ArrayList<>(List.of(args));
        argv.addAll(List.of("--execution-url", stack.execution.url(), "--queue-url", stack.queue.url(),
                "--registry-url", stack.registry.url(), "--token", token));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = new CommandLine(new BatchyardCommand()).setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err)).execute(argv.toArray(String[]::new));
        return new Run(status, out.toString(), err.toString());
    }
}
