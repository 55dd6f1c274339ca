package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.EventProbe.Received;
import io.batchyard.teststack.identity.Identity;
import io.restassured.path.json.JsonPath;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The execution-service README's walkthrough, "deploy jobs and trigger a chain", run as it stands: the block between
 * its {@code walkthrough} markers goes to {@code bash} against the real services, with only the local stack's
 * addresses replaced by this stack's and {@code deploy/local/token.sh} answering with this stack's tokens for the
 * users, roles and groups the block names. Three stand-alone jobs A → B → C, registered, deployed (no deployment
 * script: execution-service deploys them itself) and triggered on-batch as a user would, each run once, in order,
 * without any max batch or deployment script set up beforehand.
 */
class TriggerWalkthroughEndToEndTest {

    private static final Path README = Path.of("..", "..", "execution-service", "README.md");
    private static final Path STEP_SCRIPT = Path.of("..", "local", "demo-scripts", "stamp.sh");
    private static final Pattern TOKEN_CALL = Pattern.compile("deploy/local/token\\.sh (\\S+) (\\S+) (\\S+)\\)");
    private static final Pattern IDS = Pattern.compile("A=(\\d+) B=(\\d+) C=(\\d+)");
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static Stack stack;

    @BeforeAll
    static void start() throws IOException {
        // the local runner's script directory holds the step script, and no deployment script of the jobs' type
        Files.copy(STEP_SCRIPT, Stack.sharedScriptDir().resolve("stamp.sh"), StandardCopyOption.REPLACE_EXISTING);
        Files.deleteIfExists(Stack.sharedScriptDir().resolve("process-type-2.sh"));
        stack = Stack.shared();
    }

    @Test
    void theReadmesStepsRunAThenBThenCOnceEach() throws Exception {
        for (String tool : List.of("bash", "curl", "python3")) {
            if (!ExternalCommands.onPath(tool)) {
                System.out.println("[skip] " + tool + " is not installed: the README's walkthrough is not run");
                return;
            }
        }
        String block = walkthrough();
        Path dir = Files.createTempDirectory("walkthrough");
        tokenScript(dir, block);

        String out;
        try (EventProbe lifecycle = EventProbe.on(stack.kafka(), Topics.EXECUTION_LIFECYCLE)) {
            out = ExternalCommands.run(dir, List.of("bash", "-e", "-c", localAddressesReplaced(block)), Map.of(),
                    Duration.ofMinutes(5));
            Matcher ids = IDS.matcher(out);
            assertThat(ids.find()).as(out).isTrue();
            long a = Long.parseLong(ids.group(1)), b = Long.parseLong(ids.group(2)), c = Long.parseLong(ids.group(3));

            // in order: each start after the end upstream, whose batch started it
            List<Long> moments = new ArrayList<>();
            for (long job : List.of(a, b, c)) {
                Received<JobStarted> started = lifecycle.await(JobStarted.class, e -> e.getProcessId() == job, WAIT);
                Received<JobHalted> halted = lifecycle.await(JobHalted.class, e -> e.getProcessId() == job, WAIT);
                moments.add(started.event().getHeader().getOccurredAt().toEpochMilli());
                moments.add(halted.event().getHeader().getOccurredAt().toEpochMilli());
            }
            assertThat(moments).as("JobStarted/JobHalted of A, B, C").isSorted();
            // once each
            lifecycle.poll(Duration.ofSeconds(2));
            for (long job : List.of(a, b, c)) {
                assertThat(lifecycle.received(JobStarted.class, e -> e.getProcessId() == job)).as("runs of %d", job)
                        .hasSize(1);
                JsonPath runs = given().baseUri(stack.execution.url()).auth().oauth2(Identity.get().adminToken())
                        .queryParam("processId", job).get("/runs").then().statusCode(200).extract().jsonPath();
                assertThat(runs.getInt("total")).isEqualTo(1);
                assertThat(runs.getString("items[0].state")).isEqualTo("SUCCESS");
            }
            // what the block shows a reader: /why before the deployment, the deployments, C's step output
            assertThat(out).contains("NOT_DEPLOYED chain-b has not been deployed. Please deploy it (POST /processes/"
                    + b + "/deployments)");
            assertThat(out).containsPattern("deployment \\d+ SUCCESS no process-type-2\\.sh in the script directory "
                    + ".*: execution-service deployed the stand-alone parent itself");
            // the upstream grain: C's bucket is B's marking, which is A's bucket
            assertThat(out).containsPattern("stdout job " + c + " ran for bucket first; its output is batch \\d+");
        }
    }

    /** The shell block between the README's walkthrough markers. */
    private static String walkthrough() throws IOException {
        String readme = Files.readString(README, StandardCharsets.UTF_8);
        int begin = readme.indexOf("<!-- walkthrough:begin -->");
        int end = readme.indexOf("<!-- walkthrough:end -->");
        assertThat(begin).as("walkthrough markers in " + README).isNotNegative().isLessThan(end);
        String fenced = readme.substring(begin, end);
        int open = fenced.indexOf("```bash\n");
        int close = fenced.lastIndexOf("```");
        assertThat(open).as("a bash block between the markers").isNotNegative().isLessThan(close);
        return fenced.substring(open + "```bash\n".length(), close);
    }

    /** The local stack's default addresses, as the block names them, become this stack's. */
    private static String localAddressesReplaced(String block) {
        Map<String, String> addresses = Map.of("http://127.0.0.1:8081", stack.registry.url(),
                "http://127.0.0.1:8082", stack.execution.url(), "http://127.0.0.1:8083", stack.queue.url());
        String replaced = block;
        for (Map.Entry<String, String> a : addresses.entrySet()) {
            assertThat(block).as("the walkthrough names " + a.getKey()).contains(a.getKey());
            replaced = replaced.replace(a.getKey(), a.getValue());
        }
        return replaced;
    }

    /** {@code deploy/local/token.sh} under {@code dir}: this stack's token for each user, roles and groups called. */
    private static void tokenScript(Path dir, String block) throws IOException {
        Set<String> cases = new LinkedHashSet<>();
        Matcher call = TOKEN_CALL.matcher(block);
        while (call.find()) {
            String token = Identity.get().token(call.group(1), Set.of(call.group(2).split(",")),
                    Set.copyOf(Arrays.asList(call.group(3).split(","))));
            cases.add("  '" + call.group(1) + " " + call.group(2) + " " + call.group(3) + "') echo '" + token + "' ;;");
        }
        assertThat(cases).as("token.sh calls in the walkthrough").isNotEmpty();
        Path script = Files.createDirectories(dir.resolve("deploy/local")).resolve("token.sh");
        Files.writeString(script, "#!/bin/sh\ncase \"$1 $2 $3\" in\n" + String.join("\n", cases)
                + "\n  *) echo \"no token for $*\" >&2; exit 1 ;;\nesac\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    }
}
