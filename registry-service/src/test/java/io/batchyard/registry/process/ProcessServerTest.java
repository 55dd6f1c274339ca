package io.batchyard.registry.process;

import static io.batchyard.registry.Fixtures.HIVE;
import static io.batchyard.registry.Fixtures.SEMANTIC;
import static io.batchyard.registry.Fixtures.parentBody;
import static io.batchyard.registry.Fixtures.patch;
import static io.batchyard.registry.Fixtures.postProcess;
import static io.batchyard.registry.Fixtures.stepBody;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.batchyard.events.ProcessDefinition;
import io.batchyard.events.ProcessServer;
import io.batchyard.events.registry.ProcessChanged;
import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.registry.Fixtures;
import io.batchyard.registry.RegistryTest;
import io.batchyard.schemas.EventCodec;
import io.restassured.http.ContentType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/** A process names a registered server; its events carry the server's type, host and port and never a secret. */
@RegistryTest
class ProcessServerTest extends ProcessEventsTestSupport {

    private static final String PASSWORD = "canary-pw-5e8d21b4";
    private static final String SSH_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\ncanary-key-93c0af\n-----END OPENSSH PRIVATE KEY-----";
    private static final String LOGIN = "canary-login-61d7";

    @Test
    void eventsCarryTheNamedServersAddressAndNoSecret() {
        long server = server("hive-prod.example", 10000);

        Map<String, Object> parentBody = parentBody(app, SEMANTIC);
        parentBody.put("serverId", server);
        long job = postProcess(parentBody).statusCode(201).body("serverId", equalTo((int) server))
                .extract().jsonPath().getLong("id");
        long step = postProcess(stepBody(app, job, HIVE)).statusCode(201).body("serverId", nullValue())
                .extract().jsonPath().getLong("id");

        ProcessRegistered registered = events.await(ProcessRegistered.class, e -> e.getParentProcessId() == job
                && e.getChangedProcessIds().contains(step), WAIT).event();
        ProcessServer carried = registered.getParent().getServer();
        assertThat(carried.getServerId()).isEqualTo(server);
        assertThat(carried.getType()).isEqualTo("hive");
        assertThat(carried.getHost()).isEqualTo("hive-prod.example");
        assertThat(carried.getPort()).isEqualTo(10000);
        assertThat(registered.getSteps()).singleElement().extracting(ProcessDefinition::getServer).isNull();
        assertNoSecret(registered);

        // A step names a server of its own; the change is announced with it.
        patch(step, Map.of("serverId", server)).statusCode(200).body("serverId", equalTo((int) server));
        ProcessChanged linked = events.await(ProcessChanged.class, e -> e.getParentProcessId() == job
                && e.getSteps().get(0).getServer() != null, WAIT).event();
        assertThat(linked.getSteps().get(0).getServer().getHost()).isEqualTo("hive-prod.example");
        assertNoSecret(linked);

        // The server moves: every tree naming it is announced again, in the transaction of the change.
        Map<String, Object> moved = serverBody((String) given().get("/servers/" + server).then().extract()
                .path("serverName"), "hive-new.example", 10001);
        given().contentType(ContentType.JSON).body(moved).put("/servers/" + server).then().statusCode(200)
                .body("serverPort", equalTo(10001));
        ProcessChanged movedEvent = events.await(ProcessChanged.class, e -> e.getParentProcessId() == job
                && e.getParent().getServer() != null
                && "hive-new.example".equals(e.getParent().getServer().getHost()), WAIT).event();
        assertThat(movedEvent.getChangedProcessIds()).containsExactlyInAnyOrder(job, step);
        assertThat(movedEvent.getSteps().get(0).getServer().getPort()).isEqualTo(10001);
        assertNoSecret(movedEvent);

        // A new password alone changes nothing events carry: no announcement.
        Map<String, Object> secretOnly = new HashMap<>(moved);
        secretOnly.put("loginPassword", PASSWORD + "-2");
        int before = events.all(ProcessChanged.class, e -> e.getParentProcessId() == job, Duration.ofSeconds(1)).size();
        given().contentType(ContentType.JSON).body(secretOnly).put("/servers/" + server).then().statusCode(200);
        assertThat(events.all(ProcessChanged.class, e -> e.getParentProcessId() == job, Duration.ofSeconds(2)))
                .hasSize(before);

        // A server named by a live process stays; once no process names it, it can go.
        given().delete("/servers/" + server).then().statusCode(409).body("code", equalTo(211))
                .body("detail", containsString(String.valueOf(step)));
        patch(step, nullServer()).statusCode(200).body("serverId", nullValue());
        patch(job, nullServer()).statusCode(200).body("serverId", nullValue());
        events.await(ProcessChanged.class, e -> e.getParentProcessId() == job && e.getParent().getServer() == null
                && e.getSteps().get(0).getServer() == null, WAIT);
        given().delete("/servers/" + server).then().statusCode(204);
    }

    @Test
    void anUnknownServerIsRefused() {
        Map<String, Object> body = parentBody(app, SEMANTIC);
        body.put("serverId", 99_999_999L);
        postProcess(body).statusCode(422).body("code", equalTo(224)).body("detail", containsString("99999999"));
        long job = postProcess(parentBody(app, SEMANTIC)).statusCode(201).extract().jsonPath().getLong("id");
        patch(job, Map.of("serverId", 99_999_998L)).statusCode(422).body("code", equalTo(224));
        Map<String, Object> badPort = serverBody(Fixtures.unique("hive"), "h.example", 70000);
        given().contentType(ContentType.JSON).body(badPort).post("/servers").then().statusCode(400)
                .body("code", equalTo(1));
    }

    private static Map<String, Object> nullServer() {
        Map<String, Object> clear = new HashMap<>();
        clear.put("serverId", null);
        return clear;
    }

    private static void assertNoSecret(SpecificRecord event) {
        String binary = new String(EventCodec.encode(event), StandardCharsets.ISO_8859_1);
        for (String text : new String[] {binary, event.toString()}) {
            assertThat(text).doesNotContain(PASSWORD).doesNotContain("canary-key").doesNotContain(LOGIN);
        }
    }

    private static long server(String host, int port) {
        Map<String, Object> body = serverBody(Fixtures.unique("hive"), host, port);
        body.put("loginPassword", PASSWORD);
        body.put("sshPrivateKey", SSH_KEY);
        return given().contentType(ContentType.JSON).body(body).post("/servers").then().statusCode(201)
                .body("serverPort", equalTo(port)).extract().jsonPath().getLong("id");
    }

    private static Map<String, Object> serverBody(String name, String host, int port) {
        Map<String, Object> body = new HashMap<>();
        body.put("serverType", "hive");
        body.put("serverName", name.substring(0, Math.min(45, name.length())));
        body.put("loginUser", LOGIN);
        body.put("serverIp", host);
        body.put("serverPort", port);
        return body;
    }
}
