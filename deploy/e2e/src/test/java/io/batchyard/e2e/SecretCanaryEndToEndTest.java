package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.teststack.TopicContents;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A canary secret planted everywhere a secret lives (the services' own environment, a server's password, a
 * credential property) must come out nowhere: not in what a job sees, not in any answer, log or Kafka record. The
 * job that would leak it most easily prints its whole environment and its arguments.
 */
class SecretCanaryEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String CANARY = Stack.SHARED_CANARY;
    private static Stack stack;
    private static final List<String> answers = new ArrayList<>();

    @BeforeAll
    static void start() throws IOException {
        Path show = Stack.sharedScriptDir().resolve("show-everything.sh");
        Files.writeString(show, """
                #!/bin/sh
                for a in "$0" "$@"; do echo "arg=[$a]"; done
                env | sed 's/^/env: /'
                """);
        Files.setPosixFilePermissions(show, PosixFilePermissions.fromString("rwxr-xr-x"));
        stack = Stack.shared();
    }

    @Test
    void theCanaryAppearsInNoOutputAnswerLogOrTopic() throws IOException {
        long serverId = keep(registry().body(Map.of("serverType", "sftp", "serverName", "canary-" + System.nanoTime() % 1_000_000,
                "loginUser", "etl", "loginPassword", CANARY)).post("/servers"), 201).jsonPath().getLong("id");
        long app = keep(registry().body(Map.of("name", "canary-" + System.nanoTime(), "description", "canary", "owner",
                "e2e")).post("/applications"), 201).jsonPath().getLong("id");
        long parent = process(app, null);
        long step = process(app, parent);
        keep(registry().body(Map.of("configGroup", "script", "value", "show-everything.sh"))
                .put("/processes/" + step + "/properties/script"), 200);
        keep(registry().body(Map.of("configGroup", "param", "value", "--visible-argument"))
                .put("/processes/" + step + "/properties/1"), 200);
        keep(registry().body(Map.of("configGroup", "credential", "value", CANARY))
                .put("/processes/" + step + "/properties/dbpass"), 200);
        keep(registry().body(Map.of("nextProcessIds", List.of(step))).patch("/processes/" + parent), 200);
        keep(registry().body(Map.of("nextProcessIds", List.of(parent))).patch("/processes/" + step), 200);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> {
            Response r = execution().get("/process-definitions/" + step);
            return r.statusCode() == 200 && r.jsonPath().getList("nextProcessIds", Long.class).contains(parent);
        });
        keep(execution().get("/process-definitions/" + step), 200);

        keep(execution().body(Map.of()).put("/runner/processes/" + parent), 200);
        keep(execution().body(Map.of("bucket", "canary-bucket")).post("/runner/processes/" + parent + "/buckets"), 201);
        // The scheduler's tick may have claimed the bucket first (200 then, with the reason); either way it runs.
        Response launched = execution().post("/runner/processes/" + parent + "/launch");
        answers.add(launched.asString());
        assertThat(launched.statusCode()).as(launched.asString()).isIn(200, 202);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> List.of("COMPLETE", "FAILED").contains(bucketStatus(parent)));
        Response buckets = keep(execution().get("/runner/processes/" + parent + "/buckets"), 200);
        assertThat(buckets.jsonPath().getString("items[0].status")).as(buckets.asString()).isEqualTo("COMPLETE");
        long run = buckets.jsonPath().getLong("items[0].instanceExecId");
        List<String> lines = keep(execution().queryParam("limit", 500).get("/runs/" + run + "/log"), 200)
                .jsonPath().getList("items.line");

        // The job did run and did print everything it had, so its output is a real test of what it was given.
        assertThat(lines).contains("arg=[--visible-argument]", "arg=[canary-bucket]");
        assertThat(lines).anyMatch(l -> l.startsWith("env: PATH=")).anyMatch(l -> l.startsWith("env: PIPEJOBID="));
        assertThat(lines).noneMatch(l -> l.startsWith("env: CANARY_SECRET") || l.startsWith("env: QUARKUS_")
                || l.startsWith("env: BATCHYARD_SECRETS_KEY"));

        keep(registry().get("/servers"), 200);
        keep(registry().get("/servers/" + serverId), 200);
        keep(registry().get("/processes/" + step + "/properties"), 200);
        keep(registry().get("/processes/" + step + "/properties/dbpass"), 200);
        keep(execution().get("/runs/" + run + "/log"), 200);

        for (String secret : List.of(CANARY, Stack.SECRETS_KEY)) {
            assertThat(lines).as("the job's output").noneMatch(l -> l.contains(secret));
            assertThat(answers).as("HTTP answers").noneMatch(a -> a.contains(secret));
            for (ServiceProcess service : List.of(stack.registry, stack.execution, stack.queue)) {
                assertThat(Files.readString(service.log(), StandardCharsets.ISO_8859_1)).as(service.log().toString())
                        .doesNotContain(secret);
            }
        }
        List<ConsumerRecord<byte[], byte[]>> records = TopicContents.read(stack.kafka(), t -> t.startsWith("batchyard."),
                Duration.ofSeconds(10), WAIT);
        assertThat(records).as("Batchyard's topics hold this test's registrations").isNotEmpty();
        byte[] canary = CANARY.getBytes(StandardCharsets.UTF_8);
        assertThat(records).noneMatch(r -> contains(r.value(), canary) || contains(r.key(), canary));
    }

    private static long process(long app, Long parent) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", (parent == null ? "canary-job-" : "canary-step-") + System.nanoTime() % 1_000_000);
        body.put("description", "canary");
        body.put("applicationId", app);
        body.put("processTypeId", parent == null ? 2 : 22);
        body.put("parentProcessId", parent);
        if (parent == null) {
            body.put("workflowTypeId", 2);
        }
        return keep(registry().body(body).post("/processes"), 201).jsonPath().getLong("id");
    }

    private static String bucketStatus(long parent) {
        return execution().get("/runner/processes/" + parent + "/buckets").jsonPath().getString("items[0].status");
    }

    /** Checks the status and keeps the answer's body for the final search. */
    private static Response keep(Response response, int status) {
        answers.add(response.asString());
        assertThat(response.statusCode()).as(response.asString()).isEqualTo(status);
        return response;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        if (haystack == null) {
            return false;
        }
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static RequestSpecification registry() {
        return given().baseUri(stack.registry.url()).contentType(ContentType.JSON);
    }

    private static RequestSpecification execution() {
        return given().baseUri(stack.execution.url()).contentType(ContentType.JSON);
    }
}
