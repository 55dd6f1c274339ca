package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.batchyard.client.BatchyardClient;
import io.batchyard.client.FileToRegister;
import io.batchyard.client.LogEntry;
import io.batchyard.client.ProblemException;
import io.batchyard.client.Property;
import io.batchyard.client.RegisteredFile;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Generated Oozie workflows are runnable: each test registers a parent whose steps are shell actions, fetches its
 * {@code workflow.xml} from registry-service and walks it with {@link OozieWorkflowWalker}, whose java actions run the
 * client's Oozie mains against the shared stack (a token file for their bearer token). A downstream job consumes the
 * parent's batches, so the queue shows whether the run's HaltJob handed its target batch on.
 */
class OozieWorkflowWalkerEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int SEMANTIC = 2;
    private static final int SHELL = 22;
    private static final List<String> SETTINGS = List.of("batchyard.execution.url", "batchyard.queue.url",
            "batchyard.registry.url", "batchyard.token.file");
    private static Stack stack;
    private static long app;
    private static Path outputs;

    @BeforeAll
    static void start() throws IOException {
        stack = Stack.shared();
        app = registry().body(Map.of("name", "walker-" + System.nanoTime(), "description", "oozie walker",
                "owner", "e2e")).post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        outputs = Files.createDirectories(Path.of("target", "walker-output").toAbsolutePath());
        Path token = outputs.resolve("token");
        Files.writeString(token, Identity.get().adminToken() + "\n");
        System.setProperty("batchyard.execution.url", stack.execution.url());
        System.setProperty("batchyard.queue.url", stack.queue.url());
        System.setProperty("batchyard.registry.url", stack.registry.url());
        System.setProperty("batchyard.token.file", token.toString());
    }

    @AfterAll
    static void clear() {
        SETTINGS.forEach(System::clearProperty);
    }

    @Test
    void aChainRunsEveryStepAndHandsItsBatchDownstream() {
        Tree t = tree(Map.of(1, List.of(2), 2, List.of(3), 3, List.of()));
        OozieWorkflowWalker.Walk walk = walker(t).walk(name -> false);

        assertThat(walk.end()).isEqualTo("halt");
        assertThat(walk.visited()).containsSubsequence("init-job", "recovery-test", "init-step-" + t.step(1),
                "halt-step-" + t.step(1), "init-step-" + t.step(2), "halt-step-" + t.step(2),
                "init-step-" + t.step(3), "halt-step-" + t.step(3), "halt-job", "halt");
        assertThat(walk.visited()).noneMatch(n -> n.startsWith("term-"));
        JsonPath run = latestRun(t.parent);
        assertThat(run.getString("run.state")).isEqualTo("SUCCESS");
        assertThat(run.getLong("run.instanceExecId"))
                .isEqualTo(Long.parseLong(walk.actionData().get("init-job").get("instance-exec-id")));
        assertThat(stepStates(run)).containsExactlyInAnyOrderEntriesOf(Map.of(t.step(1), "SUCCESS", t.step(2),
                "SUCCESS", t.step(3), "SUCCESS"));
        awaitQueued(t, run.getLong("run.targetBatchId"));
    }

    @Test
    void aForkRunsBothBranchesAndTheJoinHaltsThemTogether() {
        // 1 -> {2, 3} -> 4
        Tree t = tree(Map.of(1, List.of(2, 3), 2, List.of(4), 3, List.of(4), 4, List.of()));
        OozieWorkflowWalker.Walk walk = walker(t).walk(name -> false);

        assertThat(walk.end()).isEqualTo("halt");
        assertThat(walk.visited()).contains("fork-" + t.step(1), "join-" + t.step(4), "init-step-" + t.step(2),
                "init-step-" + t.step(3), "init-step-" + t.step(4));
        assertThat(walk.visited().indexOf("init-step-" + t.step(4)))
                .isGreaterThan(walk.visited().indexOf("join-" + t.step(4)));
        JsonPath run = latestRun(t.parent);
        assertThat(run.getString("run.state")).isEqualTo("SUCCESS");
        assertThat(stepStates(run)).containsOnlyKeys(t.step(1), t.step(2), t.step(3), t.step(4))
                .allSatisfy((step, state) -> assertThat(state).isEqualTo("SUCCESS"));
        awaitQueued(t, run.getLong("run.targetBatchId"));
    }

    @Test
    void aFailedStepIsTermedAndTheJobFailedThenTheRecoveryRunResumesAtIt() {
        Tree t = tree(Map.of(1, List.of(2), 2, List.of(3), 3, List.of()));
        String failingAction = "shell-" + t.step(2) + "-";
        OozieWorkflowWalker.Walk failed = walker(t).walk(name -> name.startsWith(failingAction));

        assertThat(failed.killed()).isTrue();
        assertThat(failed.visited()).containsSubsequence("halt-step-" + t.step(1), "init-step-" + t.step(2),
                "term-step-" + t.step(2), "term-job", "kill");
        assertThat(failed.visited()).doesNotContain("init-step-" + t.step(3), "halt-job");
        JsonPath failedRun = latestRun(t.parent);
        assertThat(failedRun.getString("run.state")).isEqualTo("FAILED");
        assertThat(stepStates(failedRun)).containsExactlyInAnyOrderEntriesOf(
                Map.of(t.step(1), "SUCCESS", t.step(2), "FAILED"));
        long targetBatch = failedRun.getLong("run.targetBatchId");
        assertThat(queued(t)).as("a failed run hands nothing on").isEmpty();

        // The next run: InitJob says where to resume, the decision jumps there, step 1 is not run again.
        OozieWorkflowWalker.Walk recovery = walker(t).walk(name -> false);
        assertThat(recovery.actionData().get("init-job")).containsEntry("last-recoverable-sp-id",
                String.valueOf(t.step(2)));
        assertThat(recovery.end()).isEqualTo("halt");
        assertThat(recovery.visited()).containsSubsequence("init-job", "recovery-test", "init-step-" + t.step(2),
                "halt-step-" + t.step(2), "init-step-" + t.step(3), "halt-job");
        assertThat(recovery.visited()).doesNotContain("init-step-" + t.step(1));
        JsonPath run = latestRun(t.parent);
        assertThat(run.getString("run.state")).isEqualTo("SUCCESS");
        assertThat(run.getBoolean("run.retry")).isTrue();
        assertThat(run.getLong("run.targetBatchId")).as("the retry produces the failed run's batch")
                .isEqualTo(targetBatch);
        assertThat(stepStates(run)).containsExactlyInAnyOrderEntriesOf(Map.of(t.step(2), "SUCCESS", t.step(3),
                "SUCCESS"));
        awaitQueued(t, targetBatch);
    }

    @Test
    void theLibraryKeepsTheProcessLogReadsPropertiesAndRegistersFiles() {
        BatchyardClient client = BatchyardClient.fromEnvironment();
        long parent = process(null, SHELL, List.of());
        long step = process(parent, SHELL, List.of());
        awaitKnown(step, List.of());
        registry().body(Map.of("configGroup", "param", "value", "--day=2024-05-01"))
                .put("/processes/" + step + "/properties/day").then().statusCode(200);

        assertThat(client.lastProcessLogValue(step, "last-id", "import")).isEmpty();
        LogEntry added = client.addProcessLog(step, LogEntry.of("import", "last-id", "4711", 7L));
        assertThat(added.logId()).isPositive();
        client.addProcessLog(step, LogEntry.of("import", "last-id", "4712", 8L));
        assertThat(client.lastProcessLogValue(step, "last-id", "import")).get().extracting(LogEntry::message)
                .isEqualTo("4712");
        assertThat(client.readProcessLog(step, "import", null, 10)).extracting(LogEntry::message)
                .containsExactly("4712", "4711");

        assertThat(client.properties(step, "param")).extracting(Property::key, Property::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("day", "--day=2024-05-01"));
        assertThat(client.property(step, "day")).get().extracting(Property::configGroup).isEqualTo("param");
        assertThat(client.property(step, "absent")).isEmpty();

        RegisteredFile file = client.registerFile(new FileToRegister(step, 123461, "/landing/" + step + ".csv", 10,
                "abc", "2024-05-01T10:00:00Z", null));
        assertThat(file.batchId()).isPositive();
        assertThat(file.path()).isEqualTo("/landing/" + step + ".csv");
        assertThatThrownBy(() -> client.registerFile(new FileToRegister(step, 123461, "/landing/" + step + ".csv", 10,
                "abc", null, file.batchId()))).isInstanceOfSatisfying(ProblemException.class,
                e -> assertThat(e.code()).isEqualTo(301));
    }

    // ---- fixtures ----

    /** A parent, its steps by their number in the test, and a downstream job's step consuming the parent's batches. */
    private record Tree(long parent, Map<Integer, Long> steps, long downstreamStep) {
        long step(int n) {
            return steps.get(n);
        }
    }

    /** Steps 1..n linked by {@code next} (no successor = the last, linked back to the parent). */
    private static Tree tree(Map<Integer, List<Integer>> next) {
        long parent = process(null, SHELL, List.of());
        Map<Integer, Long> steps = new LinkedHashMap<>();
        next.keySet().stream().sorted().forEach(n -> steps.put(n, process(parent, SHELL, List.of())));
        Map<Long, List<Long>> links = new LinkedHashMap<>();
        links.put(parent, List.of(steps.get(1)));
        next.forEach((n, successors) -> links.put(steps.get(n), successors.isEmpty() ? List.of(parent)
                : successors.stream().map(steps::get).toList()));
        long downstream = process(null, SHELL, List.of());
        long downstreamStep = process(downstream, SHELL, List.of(parent));
        links.put(downstream, List.of(downstreamStep));
        links.put(downstreamStep, List.of(downstream));
        links.forEach((process, to) -> registry().body(Map.of("nextProcessIds", to)).patch("/processes/" + process)
                .then().statusCode(200));
        // execution-service and queue-service learn the tree from the registry's events
        links.forEach((process, to) -> awaitKnown(process, to));
        return new Tree(parent, steps, downstreamStep);
    }

    private static long process(Long parent, int type, List<Long> enqueuers) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", (parent == null ? "walk-job-" : "walk-step-") + System.nanoTime() % 1_000_000);
        body.put("description", "walker e2e");
        body.put("applicationId", app);
        body.put("processTypeId", parent == null ? SEMANTIC : type); // shell steps belong to semantic parents
        body.put("parentProcessId", parent);
        body.put("enqueuingProcessIds", enqueuers);
        return registry().body(body).post("/processes").then().statusCode(201).extract().jsonPath().getLong("id");
    }

    private static void awaitKnown(long process, List<Long> next) {
        for (String service : List.of(stack.execution.url(), stack.queue.url())) {
            await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
                Response r = given().baseUri(service).get("/process-definitions/" + process);
                return r.statusCode() == 200 && r.jsonPath().getList("nextProcessIds", Long.class).containsAll(next);
            });
        }
    }

    private static OozieWorkflowWalker walker(Tree t) {
        String xml = given().baseUri(stack.registry.url()).queryParam("format", "oozie")
                .get("/processes/" + t.parent + "/workflow").then().statusCode(200).extract().asString();
        return new OozieWorkflowWalker(xml, Map.of("jobTracker", "localhost:8032", "nameNode", "hdfs://localhost:8020",
                "workflowRoot", "/user/batchyard/workflows"), outputs);
    }

    private static JsonPath latestRun(long parent) {
        long id = given().baseUri(stack.execution.url()).queryParam("processId", parent).queryParam("limit", 1)
                .get("/runs").then().statusCode(200).extract().jsonPath().getLong("items[0].instanceExecId");
        return given().baseUri(stack.execution.url()).get("/runs/" + id).then().statusCode(200).extract().jsonPath();
    }

    private static Map<Long, String> stepStates(JsonPath run) {
        Map<Long, String> states = new HashMap<>();
        List<Long> ids = run.getList("steps.processId", Long.class);
        List<String> s = run.getList("steps.state", String.class);
        for (int i = 0; i < ids.size(); i++) {
            states.put(ids.get(i), s.get(i));
        }
        return states;
    }

    private static List<Long> queued(Tree t) {
        return new ArrayList<>(given().baseUri(stack.queue.url()).queryParam("processId", t.downstreamStep)
                .get("/queue").then().statusCode(200).extract().jsonPath().getList("items.sourceBatchId", Long.class));
    }

    /** HaltJob's fan-out reaches the downstream step's queue through Kafka: exactly the run's batch, unread. */
    private static void awaitQueued(Tree t, long targetBatch) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            JsonPath queue = given().baseUri(stack.queue.url()).queryParam("processId", t.downstreamStep)
                    .get("/queue").then().statusCode(200).extract().jsonPath();
            assertThat(queue.getList("items.sourceBatchId", Long.class)).containsExactly(targetBatch);
            assertThat(queue.getList("items.batchState", Integer.class)).containsExactly(0);
        });
    }

    private static RequestSpecification registry() {
        return given().baseUri(stack.registry.url()).contentType(ContentType.JSON);
    }
}
