package io.batchyard.dashboard;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.EventPublisher;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two teams' jobs run, their batches queue, and the registry announces who may read which application, all through
 * the real topics: each signed-in viewer's snapshot and stream hold only the rows of the applications they may read,
 * and a process whose application's permissions were never announced is an administrator's only.
 */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "dashboard"))
class ViewerAccessTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final long APP_A = 9801;
    private static final long APP_B = 9802;
    private static final long APP_UNANNOUNCED = 9803;
    private static final long JOB_A = 98100;
    private static final long STEP_A = 98101;
    private static final long JOB_A_DONE = 98150;
    private static final long JOB_B = 98200;
    private static final long STEP_B = 98201;
    private static final long JOB_HIDDEN = 98300;

    private static boolean published;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String kafka;

    @BeforeEach
    void twoTeamsAtWork() {
        if (published) {
            return;
        }
        try (EventPublisher publisher = new EventPublisher(kafka)) {
            publisher.publish(Topics.REGISTRY_PROCESSES, APP_A,
                    ProcessTrees.application(APP_A, "ana", "team-a", 7, 4, 0));
            publisher.publish(Topics.REGISTRY_PROCESSES, APP_B, ProcessTrees.application(APP_B, "bob", null, 7, 0, 0));
            ProcessTrees.parent(JOB_A).application(APP_A).step(STEP_A, s -> s.enqueuedBy(JOB_B)).publish(publisher);
            ProcessTrees.parent(JOB_A_DONE).application(APP_A).publish(publisher);
            ProcessTrees.parent(JOB_B).application(APP_B).step(STEP_B, s -> s.enqueuedBy(JOB_A)).publish(publisher);
            ProcessTrees.parent(JOB_HIDDEN).application(APP_UNANNOUNCED).publish(publisher);
            for (long job : new long[] {JOB_A, JOB_A_DONE, JOB_B, JOB_HIDDEN}) {
                publisher.publish(Topics.EXECUTION_LIFECYCLE, job, JobStarted.newBuilder()
                        .setHeader(Events.header("test", job + 1, null)).setProcessId(job).setInstanceExecId(job + 1)
                        .setTargetBatchId(job * 10).setTargetBatchMarking("2024-06-01").build());
            }
            publisher.publish(Topics.EXECUTION_LIFECYCLE, JOB_A_DONE, JobHalted.newBuilder()
                    .setHeader(Events.header("test", JOB_A_DONE + 1, null)).setProcessId(JOB_A_DONE)
                    .setInstanceExecId(JOB_A_DONE + 1).setTargetBatchId(JOB_A_DONE * 10).setBatchMarking(null)
                    .build());
            publisher.publish(Topics.QUEUE_BATCHES, STEP_A, BatchEnqueued.newBuilder()
                    .setHeader(Events.header("test", null, null)).setQueueId(98500).setSourceBatchId(JOB_B * 10)
                    .setSourceProcessId(JOB_B).setConsumerProcessId(STEP_A).setBatchMarking(null).build());
            publisher.publish(Topics.QUEUE_BATCHES, STEP_B, BatchEnqueued.newBuilder()
                    .setHeader(Events.header("test", null, null)).setQueueId(98501).setSourceBatchId(JOB_A * 10)
                    .setSourceProcessId(JOB_A).setConsumerProcessId(STEP_B).setBatchMarking(null).build());
        }
        published = true;
        await().atMost(WAIT).untilAsserted(() -> {
            JsonPath all = given().get("/api/snapshot").then().statusCode(200).extract().jsonPath();
            assertThat(all.getList("running.processId", Long.class)).contains(JOB_A, JOB_B, JOB_HIDDEN);
            assertThat(all.getList("finished.processId", Long.class)).contains(JOB_A_DONE);
            assertThat(all.getList("queues.consumerProcessId", Long.class)).contains(STEP_A, STEP_B);
            assertThat(all.getList("applications.applicationId", Long.class)).contains(APP_A, APP_B);
            // The registry's topic is read apart from the others: the jobs must be named too.
            assertThat(all.getList("parents.processId", Long.class)).contains(JOB_A, JOB_A_DONE, JOB_B, JOB_HIDDEN);
        });
    }

    @Test
    void eachViewerGetsTheSnapshotOfTheApplicationsTheyMayRead() {
        JsonPath ana = snapshot(token("ana", Set.of()));
        assertThat(ana.getList("running.processId", Long.class)).contains(JOB_A).doesNotContain(JOB_B, JOB_HIDDEN);
        assertThat(ana.getList("finished.processId", Long.class)).contains(JOB_A_DONE);
        assertThat(ana.getList("queues.consumerProcessId", Long.class)).contains(STEP_A).doesNotContain(STEP_B);
        assertThat(ana.getList("flow.processId", Long.class)).contains(JOB_A, STEP_A)
                .doesNotContain(JOB_B, STEP_B, JOB_HIDDEN);
        assertThat(ana.getList("applications.applicationId", Long.class)).contains(APP_A).doesNotContain(APP_B);
        assertThat(ana.getList("parents.processId", Long.class)).contains(JOB_A).doesNotContain(JOB_B, JOB_HIDDEN);

        JsonPath bob = snapshot(token("bob", Set.of()));
        assertThat(bob.getList("running.processId", Long.class)).contains(JOB_B).doesNotContain(JOB_A, JOB_HIDDEN);
        assertThat(bob.getList("finished.processId", Long.class)).doesNotContain(JOB_A_DONE);
        assertThat(bob.getList("queues.consumerProcessId", Long.class)).contains(STEP_B).doesNotContain(STEP_A);
        assertThat(bob.getList("flow.processId", Long.class)).contains(JOB_B, STEP_B)
                .doesNotContain(JOB_A, STEP_A, JOB_A_DONE);
        assertThat(bob.getList("applications.applicationId", Long.class)).contains(APP_B).doesNotContain(APP_A);

        // The owner group's members read team A (group: 4); a viewer in no group sees neither team.
        JsonPath member = snapshot(token("carol", Set.of("team-a")));
        assertThat(member.getList("running.processId", Long.class)).contains(JOB_A).doesNotContain(JOB_B);
        JsonPath stranger = snapshot(token("dave", Set.of()));
        assertThat(stranger.getList("running.processId", Long.class)).doesNotContain(JOB_A, JOB_B, JOB_HIDDEN);
        assertThat(stranger.getList("queues.consumerProcessId", Long.class)).doesNotContain(STEP_A, STEP_B);

        JsonPath admin = given().get("/api/snapshot").jsonPath();
        assertThat(admin.getList("running.processId", Long.class)).contains(JOB_A, JOB_B, JOB_HIDDEN);
    }

    @Test
    void eachViewersStreamCarriesOnlyTheirRows() throws Exception {
        JsonNode ana = firstStreamed(token("ana", Set.of()));
        JsonNode bob = firstStreamed(token("bob", Set.of()));
        assertThat(ids(ana.path("running"), "processId")).contains(JOB_A).doesNotContain(JOB_B, JOB_HIDDEN);
        assertThat(ids(ana.path("queues"), "consumerProcessId")).contains(STEP_A).doesNotContain(STEP_B);
        assertThat(ids(ana.path("flow"), "processId")).doesNotContain(JOB_B, STEP_B, JOB_HIDDEN);
        assertThat(ids(bob.path("running"), "processId")).contains(JOB_B).doesNotContain(JOB_A, JOB_HIDDEN);
        assertThat(ids(bob.path("queues"), "consumerProcessId")).contains(STEP_B).doesNotContain(STEP_A);
        assertThat(ids(bob.path("flow"), "processId")).doesNotContain(JOB_A, STEP_A, JOB_HIDDEN);
    }

    private static String token(String user, Set<String> groups) {
        return Identity.get().token(user, Set.of("viewer"), groups);
    }

    private static JsonPath snapshot(String token) {
        return given().auth().oauth2(token).get("/api/snapshot").then().statusCode(200).extract().jsonPath();
    }

    /** The first snapshot the stream sends (it sends the current view at once); the stream is then closed. */
    private static JsonNode firstStreamed(String token) throws Exception {
        try (EventStream stream = EventStream.open(token)) {
            return stream.first();
        }
    }

    private static List<Long> ids(JsonNode rows, String field) {
        List<Long> ids = new ArrayList<>();
        rows.forEach(row -> ids.add(row.path(field).asLong()));
        return ids;
    }
}
