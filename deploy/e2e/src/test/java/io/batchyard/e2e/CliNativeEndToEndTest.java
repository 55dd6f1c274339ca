package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.batchyard.cli.BatchyardCommand;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
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
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The CLI's shell comforts against the shared stack (issue 48 item 4): {@code --version} reads every service's version
 * off its real management interface, {@code --output yaml|json} prints what the services answer, a refusal keeps its
 * exit status, and the built jar's completion script completes in bash.
 */
class CliNativeEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new YAMLMapper();
    private static Stack stack;
    private static long app;
    private static String token;

    @BeforeAll
    static void start() {
        stack = Stack.shared();
        app = given().baseUri(stack.registry.url()).contentType(ContentType.JSON)
                .body(Map.of("name", "cli-native-" + System.nanoTime(), "description", "cli e2e", "owner", "e2e"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        token = Identity.get().adminToken();
    }

    @Test
    void versionNamesEveryServicesVersionFromItsManagementInterface() throws Exception {
        // the top command has no flags: the URLs come from the environment, as a shell's would
        List<String> argv = List.of(jar().toString(), "--version");
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("XDG_CONFIG_HOME", Files.createTempDirectory("batchyard-cli-config").toString());
        put(env, "REGISTRY", stack.registry);
        put(env, "EXECUTION", stack.execution);
        put(env, "QUEUE", stack.queue);
        put(env, "LINEAGE", stack.lineage);
        List<String> lines = run(pb);
        assertThat(lines.get(0)).matches("batchyard \\d+\\.\\d+\\.\\d+.*");
        String version = stack.registry.management().openApiDocument().path("info").path("version").asText();
        assertThat(version).isNotBlank();
        assertThat(lines.subList(1, lines.size())).containsExactly(
                "registry-service " + version + ", " + stack.registry.url() + " reachable",
                "execution-service " + version + ", " + stack.execution.url() + " reachable",
                "queue-service " + version + ", " + stack.queue.url() + " reachable",
                "lineage-service " + version + ", " + stack.lineage.url() + " reachable");
    }

    @Test
    void runsInYamlAndJsonAreTheServicesAnswerAndARefusalKeepsItsExitStatus() throws Exception {
        RegistryFixtures.Job job = RegistryFixtures.chain(stack, app, WAIT).upstream();
        String parent = String.valueOf(job.parent());
        assertThat(cli("init-job", parent).status()).isZero();

        JsonNode answer = JSON.readTree(given().baseUri(stack.execution.url())
                .header("Authorization", "Bearer " + token).queryParam("processId", parent).queryParam("limit", 20).queryParam("offset", 0).get("/runs")
                .then().statusCode(200).extract().asString());
        assertThat(answer.path("items")).hasSize(1);
        Run yaml = cli("runs", "list", "--process-id", parent, "--output", "yaml");
        assertThat(yaml.status()).as(yaml.err()).isZero();
        assertThat(YAML.readTree(yaml.out())).isEqualTo(answer);
        Run json = cli("runs", "list", "--process-id", parent, "--output", "json");
        assertThat(JSON.readTree(json.out())).isEqualTo(answer);
        assertThat(cli("runs", "list", "--process-id", parent).out()).startsWith("RUN ")
                .contains(answer.path("items").get(0).path("instanceExecId").asText());

        // the parent is running: a second InitJob is refused with 104, exit 14, the problem as YAML on stderr
        Run again = cli("init-job", parent, "--output", "yaml");
        assertThat(again.status()).isEqualTo(104 - 90);
        assertThat(again.out()).isEmpty();
        JsonNode problem = YAML.readTree(again.err());
        assertThat(problem.path("code").asInt()).isEqualTo(104);
        assertThat(problem.path("exit").asInt()).isEqualTo(14);
        assertThat(problem.path("status").asInt()).isEqualTo(409);
    }

    @Test
    void theBuiltJarsCompletionScriptCompletesInBash(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("batchyard.bash");
        Files.writeString(script, String.join("\n", run(new ProcessBuilder(jar().toString(), "completion", "bash")))
                + "\n", StandardCharsets.UTF_8);
        ProcessBuilder bash = new ProcessBuilder("bash", "-c", "source \"$1\"; COMP_WORDS=(batchyard runs list --o);"
                + " COMP_CWORD=3; COMP_LINE='batchyard runs list --o'; COMP_POINT=${#COMP_LINE}; _complete_batchyard;"
                + " printf '%s\\n' \"${COMPREPLY[@]}\"", "bash", script.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        assertThat(run(bash)).contains("--output", "--offset").allMatch(o -> o.startsWith("--o"));
    }

    private static void put(Map<String, String> env, String service, ServiceProcess process) {
        env.put("BATCHYARD_" + service + "_URL", process.url());
        env.put("BATCHYARD_" + service + "_MANAGEMENT_URL", process.management().root().toString());
    }

    /** client/cli's wrapper script, which runs the built jar. */
    private static Path jar() {
        return Path.of("..", "..", "client", "cli", "bin", "batchyard").toAbsolutePath().normalize();
    }

    private static List<String> run(ProcessBuilder pb) throws Exception {
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().toList();
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
