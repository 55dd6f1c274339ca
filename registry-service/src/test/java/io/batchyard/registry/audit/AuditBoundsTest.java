package io.batchyard.registry.audit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.eventing.Retention;
import io.batchyard.registry.Fixtures;
import io.batchyard.registry.RegistryTest;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.Management;
import io.batchyard.teststack.PrometheusText;
import io.batchyard.teststack.identity.Identity;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * What a flood of calls costs the audit trail: calls refused before anyone was identified are counted, not written;
 * a request id is kept only when it is one; what waits for the database is bounded, and the overflow is counted; and
 * entries past the trail's retention are pruned with the outbox and ledger rows.
 */
@RegistryTest
@TestProfile(AuditBoundsTest.SmallBounds.class)
class AuditBoundsTest {

    /**
     * A queue of five entries, and a retention of three seconds that only the test's own passes apply. Entries are
     * written without lingering, so that the first one's write is in flight before the next arrive, as the flood test
     * counts on.
     */
    public static class SmallBounds implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("batchyard.audit.queue-size", "5", "batchyard.audit.retention", "PT3S",
                    "batchyard.retention.enabled", "false", "batchyard.audit.linger", "PT0S");
        }
    }

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    Retention retention;

    @Test
    void callsRefusedBeforeAnyoneWasIdentifiedAreCountedNotWritten() {
        long process = Fixtures.parent(Fixtures.application(), Fixtures.INGESTION);
        double before = anonymousRefusals();
        String path = "/processes/" + process;
        // no token, a token that is no token, and a validly signed one meant for another application
        for (int i = 0; i < 5; i++) {
            patch(given().noFilters(), path).then().statusCode(401);
        }
        patch(given().noFilters().auth().oauth2("not-a-token"), path).then().statusCode(401);
        patch(given().noFilters().auth().oauth2(Identity.get().tokenForAudience("elsewhere", "intruder", "admin")),
                path).then().statusCode(401);
        await().atMost(WAIT).until(() -> anonymousRefusals() - before, n -> n >= 7);
        assertThat(anonymousRefusals() - before).isEqualTo(7);
        // an identified caller's refusal on the same process is still written, after all the anonymous ones
        String viewer = "viewer-" + UUID.randomUUID();
        patch(given().auth().oauth2(Identity.get().token(viewer, "viewer")), path).then().statusCode(403);
        JsonPath trail = await().atMost(WAIT).until(() -> audit(Map.of("processId", process)),
                page -> page.getList("items.subject").contains(viewer));
        assertThat(trail.getList("items.subject", String.class)).doesNotContain("anonymous");
        assertThat(audit(Map.of("subject", "anonymous", "processId", process)).getInt("total")).isZero();
    }

    @Test
    void aRequestIdIsKeptOnlyWhenItIsOne() {
        String dev = "req-" + UUID.randomUUID();
        String token = Identity.get().token(dev, "developer");
        String kept = "gw-01:" + UUID.randomUUID() + "_a.b-c";
        createApplication(token, kept).then().statusCode(201).header("X-Request-Id", (String) null);
        Response tooLong = createApplication(token, "r".repeat(129));
        tooLong.then().statusCode(201);
        Response spaces = createApplication(token, "<script> alert(1)");
        spaces.then().statusCode(201);
        String generatedForLong = tooLong.header("X-Request-Id");
        String generatedForSpaces = spaces.header("X-Request-Id");
        assertThat(UUID.fromString(generatedForLong)).isNotEqualTo(UUID.fromString(generatedForSpaces));

        JsonPath mine = await().atMost(WAIT).until(() -> audit(Map.of("subject", dev)),
                page -> page.getInt("total") == 3);
        assertThat(mine.getList("items.correlationId", String.class))
                .containsExactly(generatedForSpaces, generatedForLong, kept);
    }

    @Test
    void whatWaitsForTheDatabaseIsBoundedAndTheOverflowIsCounted() throws Exception {
        String viewer = "flood-" + UUID.randomUUID();
        String token = Identity.get().token(viewer, "viewer");
        double droppedBefore = dropped();
        try (Connection c = connect();
             Statement s = c.createStatement()) {
            // The trail's writes wait behind this lock: the first entry's write is in flight, the next five fill
            // the queue, and the last three find it full.
            c.setAutoCommit(false);
            s.execute("LOCK TABLE audit_entry IN ACCESS EXCLUSIVE MODE");
            for (int i = 0; i < 9; i++) {
                createApplication(token, "flood-" + i).then().statusCode(403);
            }
            await().atMost(WAIT).until(() -> dropped() - droppedBefore, n -> n >= 3);
            c.rollback();
        }
        JsonPath written = await().atMost(WAIT).until(() -> audit(Map.of("subject", viewer)),
                page -> page.getInt("total") == 6);
        assertThat(written.getList("items.correlationId", String.class))
                .containsExactlyInAnyOrder("flood-0", "flood-1", "flood-2", "flood-3", "flood-4", "flood-5");
        assertThat(dropped() - droppedBefore).isEqualTo(3);
    }

    @Test
    void entriesPastTheRetentionArePrunedWithTheOutboxAndLedgerRows() throws InterruptedException {
        String dev = "old-" + UUID.randomUUID();
        String token = Identity.get().token(dev, "developer");
        createApplication(token, "old").then().statusCode(201);
        await().atMost(WAIT).until(() -> audit(Map.of("subject", dev)).getInt("total") == 1);
        Thread.sleep(3_500);
        createApplication(token, "new").then().statusCode(201);
        await().atMost(WAIT).until(() -> audit(Map.of("subject", dev)).getInt("total") == 2);

        Retention.Pruned pruned = retention.prune().await().atMost(WAIT);
        assertThat(pruned.otherRows().get("audit_entry")).isPositive();
        assertThat(audit(Map.of("subject", dev)).getList("items.correlationId", String.class)).containsExactly("new");
    }

    private static Response patch(io.restassured.specification.RequestSpecification spec, String path) {
        return spec.contentType(ContentType.JSON).body(Map.of("description", "x")).patch(path);
    }

    private static Response createApplication(String token, String requestId) {
        return given().auth().oauth2(token).header("X-Request-Id", requestId).contentType(ContentType.JSON)
                .body(Map.of("name", Fixtures.unique("bounds"), "description", "d", "owner", "o"))
                .post("/applications");
    }

    private static JsonPath audit(Map<String, ?> query) {
        return given().queryParams(query).get("/audit").then().statusCode(200).extract().jsonPath();
    }

    private static double anonymousRefusals() {
        return PrometheusText.value(metrics(), "batchyard_audit_anonymous_refusals_total", "status", "401");
    }

    private static double dropped() {
        return PrometheusText.value(metrics(), "batchyard_audit_dropped_total");
    }

    private static String metrics() {
        return Management.ofApplicationUnderTest().metricsText();
    }

    private static Connection connect() throws SQLException {
        var db = BatchyardTestStack.database();
        return db.connect();
    }
}
