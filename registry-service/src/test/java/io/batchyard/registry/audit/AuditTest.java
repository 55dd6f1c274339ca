package io.batchyard.registry.audit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.registry.Fixtures;
import io.batchyard.registry.RegistryTest;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The audit trail: every state-changing call of an identified caller, answered or refused, is recorded with who made
 * it, what it was, when and how it ended; reads are not; administrators read the trail filtered and paged; events
 * carry their actor.
 */
@RegistryTest
class AuditTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void changesAndRefusalsAreRecordedReadsAreNot() {
        String dev = "dev-" + UUID.randomUUID();
        String devToken = Identity.get().token(dev, Set.of("developer"), Set.of());
        Instant before = Instant.now().minusSeconds(1);
        long app = given().auth().oauth2(devToken).contentType(ContentType.JSON)
                .body(Map.of("name", Fixtures.unique("audit"), "description", "d", "owner", "o"))
                .post("/applications").then().statusCode(201).extract().jsonPath().getLong("id");
        long process;
        try (EventProbe events = EventProbe.on(bootstrap, Topics.REGISTRY_PROCESSES)) {
            process = given().auth().oauth2(devToken).contentType(ContentType.JSON)
                    .body(Fixtures.parentBody(app, Fixtures.INGESTION)).post("/processes").then().statusCode(201)
                    .extract().jsonPath().getLong("id");
            // the event the call wrote carries its caller
            var registered = events.await(ProcessRegistered.class, e -> e.getParentProcessId() == process, WAIT);
            assertThat(registered.event().getHeader().getActor()).isEqualTo(dev);
        }
        given().auth().oauth2(devToken).get("/processes/" + process).then().statusCode(200);
        given().auth().oauth2(devToken).contentType(ContentType.JSON).body(Map.of("description", "changed"))
                .patch("/processes/" + process).then().statusCode(200);
        // refused: no token (answered before any operation runs), and a viewer below the operation's role
        given().noFilters().contentType(ContentType.JSON).body(Map.of("description", "x"))
                .patch("/processes/" + process).then().statusCode(401);
        String viewer = "viewer-" + UUID.randomUUID();
        given().auth().oauth2(Identity.get().token(viewer, Set.of("viewer"), Set.of())).contentType(ContentType.JSON)
                .body(Map.of("description", "x")).patch("/processes/" + process).then().statusCode(403);

        JsonPath mine = await().atMost(WAIT).until(() -> audit(Map.of("subject", dev)),
                page -> page.getInt("total") == 3);
        assertThat(mine.getList("items.action", String.class)).containsExactly("PATCH /processes/" + process,
                "POST /processes", "POST /applications");
        assertThat(mine.getList("items.outcome", String.class)).containsExactly("200", "201", "201");
        assertThat(mine.getList("items.channel", String.class)).containsOnly("HTTP");
        assertThat(mine.getList("items.processId", Long.class)).containsExactly(process, null, null);
        Instant first = Instant.parse(mine.getString("items[2].occurredAt"));
        assertThat(first).isAfter(before).isBefore(Instant.now());

        JsonPath refusedViewer = await().atMost(WAIT).until(() -> audit(Map.of("subject", viewer)),
                page -> page.getInt("total") == 1);
        assertThat(refusedViewer.getString("items[0].outcome")).isEqualTo("403");
        // the call without a token identified nobody: it is counted, not written (AuditBoundsTest)
        JsonPath onProcess = await().atMost(WAIT).until(() -> audit(Map.of("processId", process)),
                page -> page.getInt("total") == 2);
        assertThat(onProcess.getList("items.subject", String.class)).containsExactly(viewer, dev);
        assertThat(onProcess.getList("items.outcome", String.class)).containsExactly("403", "200");
    }

    @Test
    void theTrailIsPagedFilteredByTimeAndForAdministratorsOnly() {
        String dev = "pager-" + UUID.randomUUID();
        String devToken = Identity.get().token(dev, Set.of("developer"), Set.of());
        for (int i = 0; i < 3; i++) {
            given().auth().oauth2(devToken).contentType(ContentType.JSON)
                    .body(Map.of("name", Fixtures.unique("page"), "description", "d", "owner", "o"))
                    .post("/applications").then().statusCode(201);
        }
        await().atMost(WAIT).until(() -> audit(Map.of("subject", dev)), page -> page.getInt("total") == 3);
        JsonPath second = audit(Map.of("subject", dev, "limit", 2, "offset", 2));
        assertThat(second.getList("items.id", Long.class)).hasSize(1);
        assertThat(second.getInt("total")).isEqualTo(3);
        String newest = audit(Map.of("subject", dev, "limit", 1)).getString("items[0].occurredAt");
        assertThat(audit(Map.of("subject", dev, "from", newest)).getInt("total")).isGreaterThanOrEqualTo(1);
        assertThat(audit(Map.of("subject", dev, "to", newest)).getInt("total")).isLessThanOrEqualTo(2);
        assertThat(audit(Map.of("subject", dev, "to", "2000-01-01T00:00:00Z")).getInt("total")).isZero();

        given().queryParam("from", "yesterday").get("/audit").then().statusCode(400)
                .contentType("application/problem+json").body("code", equalTo(1));
        given().auth().oauth2(devToken).get("/audit").then().statusCode(403).body("code", equalTo(13));
        // reading the trail is not a change: it is not audited
        assertThat(audit(Map.of("subject", Identity.ADMIN_USER)).getList("items.action", String.class))
                .noneMatch(action -> action.startsWith("GET"));
    }

    private static JsonPath audit(Map<String, ?> query) {
        return given().queryParams(query).get("/audit").then().statusCode(200).extract().jsonPath();
    }
}
