package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.e2e.RegistryFixtures.Chain;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventPublisher;
import io.batchyard.teststack.RestartableKafka;
import io.batchyard.e2e.RegistryFixtures.Job;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dashboard in a real browser: Debian's Chromium, headless, driven by Playwright (src/test/browser). The page is
 * opened once; a lifecycle runs through execution-service's API; the run appears, turns to halted, and the downstream
 * queue count rises, each within 2 s of the API's answer and without a reload. A run ended by TermJob shows its code
 * and text; the filters, the "why isn't it running", compaction and lineage panels show what the services answer; and
 * a burst of 500 events does not freeze the page, which then shows the burst's last event. Screenshots go to
 * target/dashboard-screenshots.
 *
 * <p>The stack has a broker and databases of its own: the burst's runs are made up, and no other test should read them.
 */
class DashboardEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Path BROWSER_TEST = Path.of("src", "test", "browser").toAbsolutePath();
    private static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("BATCHYARD_CHROMIUM", "/usr/bin/chromium"));

    private static final int BURST_RUNS = 250;
    /** Process and run ids of the burst, far above anything the services hand out in a test. */
    private static final long BURST_PROCESS = 900_000_000L;

    private static RestartableKafka kafka;
    private static Stack stack;
    private static ServiceProcess dashboard;

    @BeforeAll
    static void start() {
        if (!Files.isExecutable(CHROMIUM) || !ExternalCommands.onPath("node") || !ExternalCommands.onPath("npm")) {
            return;
        }
        kafka = RestartableKafka.start(Topics.ALL);
        stack = new Stack(true, kafka.bootstrapServers(), "dash_");
        dashboard = stack.startDashboard();
    }

    @AfterAll
    static void stop() {
        if (dashboard != null) {
            dashboard.close();
        }
        if (stack != null) {
            stack.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void aRunAppearsFinishesAndFillsTheDownstreamQueueLiveInTheBrowser() throws Exception {
        if (stack == null) {
            System.out.println("[skip] the dashboard browser test needs Chromium (" + CHROMIUM + ", Debian package "
                    + "chromium, or BATCHYARD_CHROMIUM) and node/npm; one of them is missing");
            return;
        }
        String token = Identity.get().adminToken();
        long app = given().baseUri(stack.registry.url()).contentType(ContentType.JSON)
                .body(Map.of("name", "dash-" + System.nanoTime(), "description", "dashboard", "owner", "e2e"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        Chain measured = RegistryFixtures.chain(stack, app, WAIT);
        Job upstream = measured.upstream();
        Job downstream = measured.downstream();

        // A first lifecycle with a fan-out, not measured: the first event of each type makes its producer register
        // the schema and its readers fetch it, a one-time cost of a fresh system that is not the page's latency.
        Chain warm = RegistryFixtures.chain(stack, app, WAIT);
        lifecycle(warm.upstream());
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> given().baseUri(dashboard.url())
                .get("/api/snapshot").then().statusCode(200).extract().jsonPath()
                .getList("queues.consumerProcessId", Long.class).contains(warm.downstream().step()));

        // Without a token the page is refused like any other operation.
        given().noFilters().baseUri(dashboard.url()).get("/").then().statusCode(401);

        // What the panels read from the services: a stand-alone job for "why", a table being compacted, and a query
        // of the upstream job for the column graph.
        long standalone = standaloneJob(app);
        String table = "dash_" + System.nanoTime() % 1_000_000;
        given().baseUri(stack.queue.url()).contentType(ContentType.JSON)
                .body(Map.of("schemaName", "logs", "tableName", table)).post("/compaction/tables").then().statusCode(201);
        String objectKey = "logs/" + table + "/dt=2026-11-26/part-0.json";
        Path object = stack.compactionStore().resolve(objectKey);
        Files.createDirectories(object.getParent());
        Files.writeString(object, "{\"user_id\": 1, \"page\": \"/\"}\n");
        given().baseUri(stack.queue.url()).contentType(ContentType.JSON)
                .body(Map.of("schemaName", "logs", "tableName", table, "partitionDate", "2026-11-26",
                        "objectKey", objectKey))
                .post("/compaction/objects").then().statusCode(201);
        given().baseUri(stack.lineage.url()).contentType(ContentType.JSON)
                .body(Map.of("queryType", "HIVE", "processId", upstream.step(), "defaultDatabase", "mart",
                        "queryText", "INSERT OVERWRITE TABLE daily_" + table + " SELECT user_id, count(*) AS clicks FROM raw_"
                                + table + " GROUP BY user_id"))
                .post("/queries").then().statusCode(201);
        String writtenTable = "mart.daily_" + table;
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            var parents = given().baseUri(dashboard.url()).get("/api/snapshot").then().statusCode(200).extract()
                    .jsonPath();
            return parents.getList("parents.findAll { it.standalone }.processId", Long.class).contains(standalone)
                    && parents.getList("parents.find { it.processId == " + upstream.parent() + " }.tables", String.class)
                    .contains(writtenTable);
        });

        run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(), Duration.ofMinutes(5));
        Path signals = Files.createTempDirectory("dashboard-signals");
        Map<String, String> env = new HashMap<>(Map.of(
                "DASHBOARD_URL", dashboard.url() + "/",
                "EXECUTION_URL", stack.execution.url(),
                "TOKEN", token,
                "UPSTREAM", String.valueOf(upstream.parent()),
                "UPSTREAM_STEP", String.valueOf(upstream.step()),
                "DOWNSTREAM_STEP", String.valueOf(downstream.step()),
                "CHROMIUM", CHROMIUM.toString(),
                "SCREENSHOTS", Path.of("target", "dashboard-screenshots").toAbsolutePath().toString(),
                "LIMIT_MS", "2000"));
        env.putAll(Map.of(
                "APPLICATION", String.valueOf(app),
                "STANDALONE", String.valueOf(standalone),
                "COMPACTED_TABLE", "logs." + table,
                "LINEAGE_TABLE", writtenTable,
                "SIGNALS", signals.toString(),
                "BURST_LAST_RUN", String.valueOf(BURST_PROCESS + BURST_RUNS)));
        ExternalCommands.Background browser = ExternalCommands.start(BROWSER_TEST, List.of("node", "dashboard-check.js"),
                env);
        // The page asks for the burst once it has checked everything else, and is watching.
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(100))
                .until(() -> Files.exists(signals.resolve("burst-ready")) || !browser.alive());
        if (browser.alive()) {
            burst();
            Files.writeString(signals.resolve("burst-sent"), "sent");
        }
        String out = browser.await(Duration.ofMinutes(2));
        assertThat(out).contains("\"appearMs\"").contains("\"queueMs\"").contains("\"failedMs\"")
                .contains("\"burstLastMs\"");
        assertThat(Path.of("target", "dashboard-screenshots", "queue-rises.png")).exists();
        assertThat(Path.of("target", "dashboard-screenshots", "burst-shown.png")).exists();
    }

    /**
     * 500 events as fast as the broker takes them: {@value #BURST_RUNS} made-up runs, each started and halted, written
     * to the lifecycle topic like any producer writes them.
     */
    private static void burst() {
        try (EventPublisher publisher = new EventPublisher(stack.kafka())) {
            for (long i = 1; i <= BURST_RUNS; i++) {
                long run = BURST_PROCESS + i;
                publisher.publish(Topics.EXECUTION_LIFECYCLE, BURST_PROCESS, JobStarted.newBuilder()
                        .setHeader(Events.header("e2e-burst", run, null)).setProcessId(BURST_PROCESS)
                        .setInstanceExecId(run).setTargetBatchId(run).setTargetBatchMarking("burst")
                        .setLastRecoverableSpId(null).setRetry(false).build());
                publisher.publish(Topics.EXECUTION_LIFECYCLE, BURST_PROCESS, JobHalted.newBuilder()
                        .setHeader(Events.header("e2e-burst", run, null)).setProcessId(BURST_PROCESS)
                        .setInstanceExecId(run).setTargetBatchId(run).setBatchMarking("burst").build());
            }
        }
    }

    /** A parent the stand-alone runner runs (workflow type 2) with one shell step, and a run policy. */
    private static long standaloneJob(long app) {
        Map<String, Object> parent = new HashMap<>(Map.of("name", "standalone-" + System.nanoTime() % 1_000_000,
                "description", "runner", "applicationId", app, "processTypeId", 2, "workflowTypeId", 2));
        long pid = given().baseUri(stack.registry.url()).contentType(ContentType.JSON).body(parent).post("/processes")
                .then().statusCode(201).extract().jsonPath().getLong("id");
        Map<String, Object> step = new HashMap<>(Map.of("name", "standalone-step-" + System.nanoTime() % 1_000_000,
                "description", "runner", "applicationId", app, "processTypeId", 22, "parentProcessId", pid));
        long sid = given().baseUri(stack.registry.url()).contentType(ContentType.JSON).body(step).post("/processes")
                .then().statusCode(201).extract().jsonPath().getLong("id");
        RegistryFixtures.link(stack, pid, sid);
        RegistryFixtures.link(stack, sid, pid);
        RegistryFixtures.awaitKnown(stack, sid, pid, WAIT);
        given().baseUri(stack.execution.url()).contentType(ContentType.JSON).body(Map.of("bucket", "YYYYMMDD", "enabled", false))
                .put("/runner/processes/" + pid).then().statusCode(200);
        return pid;
    }

    /** InitJob, the step's InitStep and HaltStep, HaltJob, through execution-service's API. */
    private static void lifecycle(Job job) {
        given().baseUri(stack.execution.url()).contentType(ContentType.JSON).body(Map.of("maxBatch", 1))
                .post("/jobs/" + job.parent() + "/init").then().statusCode(200);
        given().baseUri(stack.execution.url()).post("/steps/" + job.step() + "/init").then().statusCode(200);
        given().baseUri(stack.execution.url()).post("/steps/" + job.step() + "/halt").then().statusCode(200);
        given().baseUri(stack.execution.url()).contentType(ContentType.JSON).body(Map.of("batchMarking", "warm-up"))
                .post("/jobs/" + job.parent() + "/halt").then().statusCode(200);
    }

    private static String run(List<String> command, Map<String, String> env, Duration timeout)
            throws IOException, InterruptedException {
        return ExternalCommands.run(BROWSER_TEST, command, env, timeout);
    }
}
