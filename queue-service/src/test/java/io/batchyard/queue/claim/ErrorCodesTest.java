package io.batchyard.queue.claim;

import io.batchyard.teststack.identity.Identity;
import static io.batchyard.queue.QueueFixtures.claim;
import static io.batchyard.queue.QueueFixtures.enqueueBatch;
import static io.batchyard.queue.QueueFixtures.nextId;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.queue.TestDatabase;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

@QueueTest
class ErrorCodesTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void claimRejectionsCarryTheLifecycleCodesAndChangeNothing() {
        long up = nextId(), job = nextId(), step = nextId(), other = nextId(), otherStep = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(nextId()));
            f.register(ProcessTrees.parent(job).next(step).step(step, s -> s.enqueuedBy(up).next(job)));
            f.register(ProcessTrees.parent(other).next(otherStep).step(otherStep, s -> s.next(other)));
            long batches = count("batch");

            problem(claim(job, nextId(), null), 422, 101, "max_batch cannot be null");
            problem(claim(987_654_321L, nextId(), 1), 422, 102, "Invalid parent-process. pid=987654321");
            problem(claim(step, nextId(), 1), 422, 102, "pid=" + step);
            problem(claim(job, nextId(), 1), 409, 112, "No batches present for one of the sub processes");
            given().auth().oauth2(Identity.get().serviceToken("execution")).contentType(ContentType.JSON)
                    .body(Map.of("instanceExecId", 5)).post("/internal/claims").then()
                    .statusCode(400).body("code", equalTo(1));
            org.assertj.core.api.Assertions.assertThat(count("batch")).as("no target batch for a rejected claim")
                    .isEqualTo(batches);
        }
    }

    @Test
    void fileLookupsAndRegistrationRefuseWhatDoesNotHold() {
        long up = nextId(), j1 = nextId(), s1 = nextId(), j2 = nextId(), s2 = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(up).next(nextId()));
            f.register(ProcessTrees.parent(j1).next(s1).step(s1, s -> s.enqueuedBy(up).next(j1)));
            long b1 = enqueueBatch(up, null, null);
            f.register(ProcessTrees.parent(j2).next(s2).step(s2, s -> s.enqueuedBy(up).next(j2)));
            given().contentType(ContentType.JSON).body(Map.of("processId", s2, "sourceProcessId", up))
                    .post("/batches/" + b1 + "/enqueue").then().statusCode(201);
            long b2 = enqueueBatch(up, null, null);
            // b2 went to both steps, b1 to both (s2 through the direct enqueue)
            given().queryParam("minBatchId", b1).queryParam("maxBatchId", b2).queryParam("processId", s1)
                    .get("/files").then().statusCode(200).body("size()", equalTo(2));
            given().contentType(ContentType.JSON).body(Map.of("processId", s2, "sourceProcessId", up))
                    .post("/batches/" + b1 + "/enqueue").then().statusCode(409).body("code", equalTo(304));

            long onlyS1 = enqueueBatch(up, null, "only");
            problem(given().queryParam("minBatchId", b1).queryParam("maxBatchId", 999_999_999L).queryParam("processId", s1)
                    .get("/files").then(), 404, 114, "not queued for process " + s1);
            problem(given().queryParam("minBatchId", onlyS1).queryParam("maxBatchId", b2 + 1_000_000).get("/files").then(),
                    404, 114, "not queued");
            problem(given().get("/lineage/batches/999999999").then(), 404, 114, "Invalid Target BatchId");

            Map<String, Object> file = Map.of("serverId", 7, "path", "/out/part-0001", "fileSize", 3, "fileHash", "abc");
            given().contentType(ContentType.JSON).body(file).post("/files").then().statusCode(201);
            problem(given().contentType(ContentType.JSON).body(file).post("/files").then(), 409, 301, "File Already exists");
        }
    }

    @Test
    void minAndMaxBatchesOfDifferentStepsAre113() {
        long a = nextId(), b = nextId(), ja = nextId(), sa = nextId(), jb = nextId(), sb = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(a).next(nextId()));
            f.register(ProcessTrees.parent(b).next(nextId()));
            f.register(ProcessTrees.parent(ja).next(sa).step(sa, s -> s.enqueuedBy(a).next(ja)));
            f.register(ProcessTrees.parent(jb).next(sb).step(sb, s -> s.enqueuedBy(b).next(jb)));
            long ba = enqueueBatch(a, null, null);
            long bb = enqueueBatch(b, null, null);
            problem(given().queryParam("minBatchId", Math.min(ba, bb)).queryParam("maxBatchId", Math.max(ba, bb))
                    .get("/files").then(), 422, 113, "not queued for the same sub process");
        }
    }

    private long count(String table) {
        return TestDatabase.number("SELECT count(*) FROM " + table);
    }

    private static void problem(io.restassured.response.ValidatableResponse r, int status, int code, String detail) {
        r.statusCode(status).contentType("application/problem+json").body("code", equalTo(code))
                .body("detail", containsString(detail));
    }
}
