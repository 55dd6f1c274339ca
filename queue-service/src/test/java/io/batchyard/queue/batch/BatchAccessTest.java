package io.batchyard.queue.batch;

import static io.batchyard.queue.QueueFixtures.claim;
import static io.batchyard.queue.QueueFixtures.nextId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.queue.TestDatabase;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Batches, files, queues and lineage follow the permissions of the processes' applications: another team's queue
 * cannot be filled (the enqueue that went through for any operator), its batches and files cannot be changed, and
 * everything of an application the caller may not read answers as if it did not exist, lists leaving it out.
 *
 * <p>Team B's application: its owner "bea" holds 7, its group "team-b" 4 (read), others 0. "rita" is in team-b
 * (read only); "sam" is a stranger who owns application C, with a job of his own.
 */
@QueueTest
class BatchAccessTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    private final String bea = Identity.get().token("bea", Set.of("operator"), Set.of());
    private final String rita = Identity.get().token("rita", Set.of("operator"), Set.of("team-b"));
    private final String sam = Identity.get().token("sam", Set.of("operator"), Set.of());

    /**
     * Team B's pipeline (upstream U feeds step S of job J, whose second step takes no batch of its own) and sam's own
     * job with one step.
     */
    private record Teams(long appB, long upstream, long job, long step, long second, long appC, long own,
                         long ownStep) {
    }

    private Teams teams(QueueFixtures f) {
        Teams t = new Teams(nextId(), nextId(), nextId(), nextId(), nextId(), nextId(), nextId(), nextId());
        f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + t.appB(),
                ProcessTrees.application(t.appB(), "bea", "team-b", 7, 4, 0));
        f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-" + t.appC(),
                ProcessTrees.application(t.appC(), "sam", null, 7, 0, 0));
        f.register(ProcessTrees.parent(t.upstream()).application(t.appB()).next(nextId()));
        f.register(ProcessTrees.parent(t.job()).application(t.appB()).next(t.step())
                .step(t.step(), s -> s.enqueuedBy(t.upstream()).next(t.second()))
                .step(t.second(), s -> s.next(t.job())));
        f.register(ProcessTrees.parent(t.own()).application(t.appC()).next(t.ownStep())
                .step(t.ownStep(), s -> s.next(t.own())));
        // the permissions travel on their own records: wait until both applications are known here
        await().atMost(WAIT).until(() -> as(bea).get("/process-definitions/" + t.job()).statusCode() == 200
                && as(sam).get("/process-definitions/" + t.own()).statusCode() == 200);
        return t;
    }

    private static RequestSpecification as(String token) {
        return given().auth().oauth2(token).contentType(ContentType.JSON);
    }

    private static Map<String, Object> batch(long enqueuingProcess) {
        return Map.of("enqueuingProcessId", enqueuingProcess, "serverId", 123461, "batchMarking", "m",
                "files", List.of(Map.of("path", "/landing/" + nextId() + ".csv", "fileSize", 10)));
    }

    private static long queued(long step) {
        return TestDatabase.number("SELECT count(*) FROM consumption_queue WHERE process_id = ?", step);
    }

    private static void problem(ValidatableResponse r, int status, int code) {
        r.statusCode(status).contentType("application/problem+json").body("code", equalTo(code));
    }

    @Test
    void anotherTeamsQueueCannotBeFilledByAnOperatorWithoutExecuteOnIt() {
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            Teams t = teams(f);
            long unknown = 987_654_321L;

            // a stranger: team B's processes answer as processes that do not exist
            problem(as(sam).body(batch(t.upstream())).post("/batches").then(), 422, 302);
            problem(as(sam).body(batch(unknown)).post("/batches").then(), 422, 302);
            long own = as(sam).body(batch(t.own())).post("/batches").then().statusCode(201).extract().jsonPath()
                    .getLong("batchId");
            problem(as(sam).body(Map.of("processId", t.step(), "sourceProcessId", t.own()))
                    .post("/batches/" + own + "/enqueue").then(), 422, 302);
            problem(as(sam).body(Map.of("processId", unknown, "sourceProcessId", t.own()))
                    .post("/batches/" + own + "/enqueue").then(), 422, 302);
            // a reader of B may see the processes, not run them
            problem(as(rita).body(batch(t.upstream())).post("/batches").then(), 403, 14);
            assertThat(queued(t.step())).as("nothing reached team B's queue").isZero();

            // the owner may
            long b = as(bea).body(batch(t.upstream())).post("/batches").then().statusCode(201)
                    .body("rows.processId", hasItem((int) t.step())).extract().jsonPath().getLong("batchId");
            assertThat(queued(t.step())).isEqualTo(1);
            problem(as(rita).body(Map.of("processId", t.second(), "sourceProcessId", t.upstream()))
                    .post("/batches/" + b + "/enqueue").then(), 403, 14);
            // a stranger cannot take team B's batch onto his own step either: he may not see it
            problem(as(sam).body(Map.of("processId", t.ownStep(), "sourceProcessId", t.own()))
                    .post("/batches/" + b + "/enqueue").then(), 404, 2);
            problem(as(sam).body(Map.of("enqueuingProcessId", t.own(), "batchId", b, "serverId", 1))
                    .post("/batches").then(), 400, 305);
            assertThat(queued(t.ownStep())).isZero();
            assertThat(queued(t.second())).isZero();
            as(bea).body(Map.of("processId", t.second(), "sourceProcessId", t.upstream()))
                    .post("/batches/" + b + "/enqueue").then().statusCode(201);
        }
    }

    @Test
    void batchesFilesQueuesAndLineageOfAnotherTeamAnswerAsIfTheyDidNotExist() {
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            Teams t = teams(f);
            long b = as(bea).body(batch(t.upstream())).post("/batches").then().statusCode(201).extract().jsonPath()
                    .getLong("batchId");
            long run = nextId();
            long target = claim(t.job(), run, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");

            for (long batch : List.of(b, target)) {
                as(rita).get("/batches/" + batch).then().statusCode(200).body("batchId", equalTo((int) batch));
                problem(as(sam).get("/batches/" + batch).then(), 404, 2);
            }
            problem(as(sam).get("/batches/987654321").then(), 404, 2);
            as(rita).queryParam("processId", t.step()).get("/queue").then().statusCode(200)
                    .body("total", equalTo(1)).body("items[0].sourceBatchId", equalTo((int) b));
            as(sam).queryParam("processId", t.step()).get("/queue").then().statusCode(200)
                    .body("total", equalTo(0)).body("items", empty());
            as(sam).queryParam("limit", 500).get("/queue").then().statusCode(200)
                    .body("items.processId", not(hasItem((int) t.step())));
            as(rita).queryParam("minBatchId", b).queryParam("maxBatchId", b).queryParam("processId", t.step())
                    .get("/files").then().statusCode(200).body("size()", equalTo(1));
            as(sam).queryParam("minBatchId", b).queryParam("maxBatchId", b).queryParam("processId", t.step())
                    .get("/files").then().statusCode(200).body("size()", equalTo(0));
            as(sam).queryParam("minBatchId", b).queryParam("maxBatchId", b).get("/files").then().statusCode(200)
                    .body("size()", equalTo(0));
            as(rita).get("/lineage/batches/" + target).then().statusCode(200)
                    .body("[0].sourceBatchId", equalTo((int) b));
            problem(as(sam).get("/lineage/batches/" + target).then(), 404, 114);

            // once the run completed, its rows are in the archive: listed to team B only
            f.jobHalted(t.job(), run, target, "done");
            await().atMost(WAIT).until(() -> TestDatabase.number(
                    "SELECT count(*) FROM archived_queue WHERE process_id = ?", t.step()) == 1);
            as(rita).queryParam("processId", t.step()).get("/archive").then().statusCode(200)
                    .body("total", equalTo(1));
            as(sam).queryParam("processId", t.step()).get("/archive").then().statusCode(200)
                    .body("total", equalTo(0));
        }
    }

    @Test
    void filesAreRegisteredOnlyWithExecuteOnTheStepAndOnEveryApplicationOfTheBatch() {
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            Teams t = teams(f);
            long b = as(bea).body(batch(t.upstream())).post("/batches").then().statusCode(201).extract().jsonPath()
                    .getLong("batchId");
            long files = TestDatabase.number("SELECT count(*) FROM file");

            problem(as(sam).body(file(t.step(), null)).post("/files").then(), 422, 302);
            problem(as(sam).body(file(t.ownStep(), b)).post("/files").then(), 404, 2);
            problem(as(rita).body(file(t.step(), null)).post("/files").then(), 403, 14);
            problem(as(rita).body(file(null, b)).post("/files").then(), 403, 14);
            // a new batch belongs to the application of the process that registers it: a non-administrator names one
            problem(as(sam).body(file(null, null)).post("/files").then(), 400, 1);
            assertThat(TestDatabase.number("SELECT count(*) FROM file")).as("no file registered").isEqualTo(files);

            long added = as(bea).body(file(null, b)).post("/files").then().statusCode(201).extract().jsonPath()
                    .getLong("batchId");
            assertThat(added).isEqualTo(b);
            long fresh = as(sam).body(file(t.ownStep(), null)).post("/files").then().statusCode(201).extract()
                    .jsonPath().getLong("batchId");
            as(sam).get("/batches/" + fresh).then().statusCode(200);
            problem(as(bea).get("/batches/" + fresh).then(), 404, 2);
            as(bea).queryParam("minBatchId", b).queryParam("maxBatchId", b).get("/files").then().statusCode(200)
                    .body("size()", equalTo(2)).body("path", hasItem(containsString("/out/")));
        }
    }

    private static Map<String, Object> file(Long subProcessId, Long batchId) {
        Map<String, Object> body = new java.util.HashMap<>(Map.of("serverId", 123461,
                "path", "/out/" + nextId() + ".csv", "fileSize", 3));
        if (subProcessId != null) {
            body.put("subProcessId", subProcessId);
        }
        if (batchId != null) {
            body.put("batchId", batchId);
        }
        return body;
    }
}
