package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.schemas.Topics;
import io.batchyard.teststack.ChildProcesses;
import io.batchyard.teststack.RestartableKafka;
import io.batchyard.teststack.identity.Identity;
import io.batchyard.teststack.identity.KeycloakIdentity;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Signing in against a real OpenID Connect provider: Keycloak (Maven Central's distribution, unpacked by this module's
 * build) with the local stack's realm, and the packaged registry, queue and execution services trusting it through
 * discovery. Users get their tokens by password grant; execution-service gets its own by client credentials,
 * presents it to queue-service's internal claims and renews it when it expires (shortened here to 35 s). Keycloak 26 needs a JDK 21+: without one the test is skipped and
 * says so.
 */
class KeycloakSignInEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** Short enough that the test outlives execution-service's first token. */
    private static final Duration SERVICE_TOKEN_LIFESPAN = Duration.ofSeconds(35);
    private static KeycloakIdentity keycloak;
    private static RestartableKafka kafka;
    private static Stack stack;

    @BeforeAll
    static void start() {
        List<String> seen = new ArrayList<>();
        Optional<Path> javaHome = KeycloakIdentity.javaHome(seen);
        if (javaHome.isEmpty()) {
            String reason = "Keycloak needs a JDK 21+ and none was found (" + String.join(", ", seen)
                    + "); set BATCHYARD_KEYCLOAK_JAVA_HOME";
            System.out.println("[batchyard-e2e] SKIPPED KeycloakSignInEndToEndTest: " + reason);
            Assumptions.assumeTrue(false, reason);
        }
        Path distribution = Path.of(System.getProperty("batchyard.keycloak.dist", "target/keycloak/missing"));
        if (!Files.isExecutable(distribution.resolve("bin/kc.sh"))) {
            throw new IllegalStateException(distribution + " is missing: this module's build unpacks it (mvn verify)");
        }
        keycloak = KeycloakIdentity.start(distribution, javaHome.get(),
                Path.of("..", "local", "keycloak", "batchyard-realm.json"), Path.of("target", "e2e-logs"),
                Duration.ofMinutes(5));
        System.out.println("[batchyard-e2e] " + keycloak.description() + " ready in "
                + keycloak.startTime().toSeconds() + " s on the JDK in " + javaHome.get());
        keycloak.serviceTokenLifespan(SERVICE_TOKEN_LIFESPAN);
        // A broker of its own: with databases of its own its queue-service hands out the batch ids the other tests'
        // queue-service also hands out, and a later test's lineage-service reads every run on the shared topics.
        kafka = RestartableKafka.start(Topics.ALL);
        stack = new Stack(false, kafka.bootstrapServers(), "signin_", keycloak);
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (keycloak != null) {
            keycloak.close();
        }
    }

    @Test
    void aViewerReadsAndOthersAreTurnedAway() {
        String viewer = keycloak.token("kc-viewer", Set.of("viewer"), Set.of("team-a"));
        as(viewer).get(stack.registry.url() + "/processes").then().statusCode(200);
        // a viewer may read but not register
        problem(as(viewer).contentType(ContentType.JSON).body("{}").post(stack.registry.url() + "/applications"), 403, 13);

        String nobody = keycloak.token("kc-nobody", Set.of(), Set.of());
        problem(as(nobody).get(stack.registry.url() + "/processes"), 403, 13);
        problem(given().noFilters().get(stack.registry.url() + "/processes"), 401, 12);
        // signed by a key the services do not trust, even with every role
        String foreign = Identity.get().token("kc-intruder", "admin");
        problem(as(foreign).get(stack.registry.url() + "/processes"), 401, 12);
    }

    @Test
    void executionServiceSignsInItselfToClaimBatchesAndRenewsItsToken() {
        String developer = keycloak.token("kc-developer", "developer");
        String operator = keycloak.token("kc-operator", "operator");
        long app = as(developer).contentType(ContentType.JSON)
                .body(Map.of("name", "kc-" + System.nanoTime(), "description", "sign-in", "owner", "e2e"))
                .post(stack.registry.url() + "/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        // the owner lets everyone run the application's jobs (the operator is neither its owner nor in its group)
        as(developer).contentType(ContentType.JSON)
                .body(Map.of("ownerUser", "kc-developer", "owner", 7, "group", 6, "others", 7))
                .put(stack.registry.url() + "/applications/" + app + "/permissions").then().statusCode(200);
        long first = job(developer, operator, app);
        long second = job(developer, operator, app);
        // InitJob claims the run's batches from queue-service's internal endpoint, which only the service role reaches:
        // a 200 means execution-service's client-credentials token was accepted there.
        init(operator, first);
        // The token it used has expired by now: the next claim only passes with a renewed one.
        ChildProcesses.sleep(SERVICE_TOKEN_LIFESPAN.plusSeconds(5).toMillis());
        init(operator, second);
        // and a person, even an administrator, does not reach that endpoint
        problem(as(keycloak.token("kc-admin", "admin")).contentType(ContentType.JSON).body("{}")
                .post(stack.queue.url() + "/internal/claims"), 403, 13);
    }

    @Test
    void aPersonSignsInToTheDashboardInTheBrowser() throws Exception {
        Path chromium = Path.of(System.getenv().getOrDefault("BATCHYARD_CHROMIUM", "/usr/bin/chromium"));
        if (!Files.isExecutable(chromium) || !ExternalCommands.onPath("node") || !ExternalCommands.onPath("npm")) {
            System.out.println("[skip] the dashboard sign-in test needs Chromium (" + chromium + ", Debian package "
                    + "chromium, or BATCHYARD_CHROMIUM) and node/npm; one of them is missing");
            return;
        }
        try (ServiceProcess dashboard = stack.startDashboard(keycloak.dashboardSignInConfig())) {
            keycloak.allowDashboardAt(dashboard.url());
            // A bearer token is still served as before, and no token at all is not an API error but a sign-in.
            as(keycloak.token("kc-dash-viewer", "viewer")).get(dashboard.url() + "/api/snapshot").then().statusCode(200);
            // (a token is issued with a new password each time: the one typed into the form is set last)
            String password = keycloak.user("kc-dash-viewer", Set.of("viewer"), Set.of());
            Response page = given().noFilters().redirects().follow(false).get(dashboard.url() + "/");
            assertThat(page.statusCode()).isEqualTo(302);
            assertThat(page.header("Location")).startsWith(keycloak.issuer());
            problem(given().noFilters().get(dashboard.url() + "/api/snapshot"), 401, 12);

            Path browserTest = Path.of("src", "test", "browser").toAbsolutePath();
            ExternalCommands.run(browserTest, List.of("npm", "ci", "--no-audit", "--no-fund"), Map.of(),
                    Duration.ofMinutes(5));
            String out = ExternalCommands.run(browserTest, List.of("node", "dashboard-signin.js"), Map.of(
                    "DASHBOARD_URL", dashboard.url() + "/",
                    "PROVIDER_URL", keycloak.issuer(),
                    "USERNAME", "kc-dash-viewer",
                    "PASSWORD", password,
                    "CHROMIUM", chromium.toString(),
                    "SCREENSHOTS", Path.of("target", "dashboard-screenshots").toAbsolutePath().toString()),
                    Duration.ofMinutes(3));
            assertThat(out).contains("\"landedOn\"").contains("partitions");
        }
    }

    /** A parent with one step, known to execution's and queue's read models. */
    private static long job(String developer, String operator, long app) {
        long parent = process(developer, app, null);
        long step = process(developer, app, parent);
        link(developer, parent, step);
        link(developer, step, parent);
        for (String service : List.of(stack.execution.url(), stack.queue.url())) {
            await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
                Response r = as(operator).get(service + "/process-definitions/" + step);
                return r.statusCode() == 200 && r.jsonPath().getList("nextProcessIds", Long.class).contains(parent);
            });
        }
        return parent;
    }

    private static void init(String operator, long parent) {
        // The application's permissions reach execution-service on their own partition: until they have, the call is
        // refused (403, code 14) and changes nothing, so it is simply made again.
        Response[] last = new Response[1];
        await().atMost(WAIT).pollInterval(Duration.ofMillis(250)).until(() -> {
            last[0] = as(operator).contentType(ContentType.JSON).body(Map.of("maxBatch", 1))
                    .post(stack.execution.url() + "/jobs/" + parent + "/init");
            return last[0].statusCode() != 403;
        });
        Response init = last[0];
        assertThat(init.statusCode()).as(init.asString()).isEqualTo(200);
        assertThat(init.jsonPath().getLong("targetBatchId")).isPositive();
    }

    private static RequestSpecification as(String token) {
        return given().noFilters().auth().oauth2(token);
    }

    private static void problem(Response r, int status, int code) {
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.jsonPath().getInt("code")).isEqualTo(code);
    }

    private static long process(String token, long app, Long parent) {
        Map<String, Object> body = new java.util.HashMap<>();
        body.put("name", (parent == null ? "kc-job-" : "kc-step-") + System.nanoTime() % 1_000_000);
        body.put("description", "sign-in");
        body.put("applicationId", app);
        body.put("processTypeId", parent == null ? 1 : 12);
        body.put("parentProcessId", parent);
        body.put("enqueuingProcessIds", List.of());
        return as(token).contentType(ContentType.JSON).body(body).post(stack.registry.url() + "/processes").then()
                .statusCode(201).extract().jsonPath().getLong("id");
    }

    private static void link(String token, long process, long next) {
        as(token).contentType(ContentType.JSON).body(Map.of("nextProcessIds", List.of(next)))
                .patch(stack.registry.url() + "/processes/" + process).then().statusCode(200);
    }
}
