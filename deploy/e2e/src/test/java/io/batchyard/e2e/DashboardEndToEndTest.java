package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.e2e.RegistryFixtures.Chain;
import io.batchyard.e2e.RegistryFixtures.Job;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dashboard in a real browser: Debian's Chromium, headless, driven by Playwright (src/test/browser). The page is
 * opened once; a lifecycle runs through execution-service's API; the run appears, turns to halted, and the downstream
 * queue count rises, each within 2 s of the API's answer and without a reload. Screenshots go to
 * target/dashboard-screenshots.
 */
class DashboardEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Path BROWSER_TEST = Path.of("src", "test", "browser").toAbsolutePath();
    private static final Path CHROMIUM = Path.of(System.getenv().getOrDefault("BATCHYARD_CHROMIUM", "/usr/bin/chromium"));

    private static Stack stack;
    private static ServiceProcess dashboard;

    @BeforeAll
    static void start() {
        if (!Files.isExecutable(CHROMIUM) || !ExternalCommands.onPath("node") || !ExternalCommands.onPath("npm")) {
            return;
        }
        stack = new Stack();
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

        run(List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(), Duration.ofMinutes(5));
        String out = run(List.of("node", "dashboard-check.js"), Map.of(
                "DASHBOARD_URL", dashboard.url() + "/",
                "EXECUTION_URL", stack.execution.url(),
                "TOKEN", token,
                "UPSTREAM", String.valueOf(upstream.parent()),
                "UPSTREAM_STEP", String.valueOf(upstream.step()),
                "DOWNSTREAM_STEP", String.valueOf(downstream.step()),
                "CHROMIUM", CHROMIUM.toString(),
                "SCREENSHOTS", Path.of("target", "dashboard-screenshots").toAbsolutePath().toString(),
                "LIMIT_MS", "2000"), Duration.ofMinutes(3));
        assertThat(out).contains("\"appearMs\"").contains("\"queueMs\"");
        assertThat(Path.of("target", "dashboard-screenshots", "queue-rises.png")).exists();
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
