package io.batchyard.queue.claim;

import static io.batchyard.queue.QueueFixtures.claim;
import static io.batchyard.queue.QueueFixtures.enqueueBatch;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.events.queue.BatchesArchived;
import io.batchyard.queue.QueueFixtures;
import io.batchyard.teststack.BatchyardTestStack;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The worked InitJob example (job 123 over job 85's batches, step 125 cut at EOD), with its batch rows made concrete,
 * through the queue side. It needs batch ids 11, 22 and 33, so it runs on a database of its own where no other test
 * has generated them.
 */
@QuarkusTest
@WithTestResource(value = BatchyardTestStack.class, scope = TestResourceScope.MATCHING_RESOURCES,
        initArgs = @ResourceArg(name = "database", value = "queue_worked_example"))
class WorkedExampleTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void job123CutsAtEodConsumesFourRowsAndFeedsJob130() {
        try (QueueFixtures f = new QueueFixtures(bootstrap);
             EventProbe batchEvents = EventProbe.on(bootstrap, Topics.QUEUE_BATCHES)) {
            f.register(ProcessTrees.parent(85).next(86).step(86, s -> s.next(85)));
            f.register(ProcessTrees.parent(123).next(124)
                    .step(124, s -> s.enqueuedBy(85).next(125))
                    .step(125, s -> s.enqueuedBy(85).cut("EOD").next(123)));
            f.register(ProcessTrees.parent(130).next(131).step(131, s -> s.enqueuedBy(123).next(130)));
            // three runs of 85 produced batches 11, 22, 33
            enqueueBatch(85, 11L, "2014-12-16");
            enqueueBatch(85, 22L, "2014-12-16");
            enqueueBatch(85, 33L, "EOD@2014-12-16");
            given().queryParam("processId", 124).get("/queue").then().body("items.sourceBatchId", equalTo(List.of(11, 22, 33)));
            List<Long> queueIds = given().queryParam("processId", 125).get("/queue").then().extract().jsonPath()
                    .getList("items.queueId", Long.class);

            long ie = 900_001;
            JsonPath out = claim(123, ie, 1).statusCode(200).extract().jsonPath();
            long tb = out.getLong("targetBatchId");
            assertThat(out.getBoolean("retry")).isFalse();
            assertThat(out.getList("rows.processId", Long.class)).containsExactly(124L, 125L, 125L, 125L);
            assertThat(out.getList("rows.sourceBatchId", Long.class)).containsExactly(11L, 11L, 22L, 33L);
            assertThat(out.getList("rows.batchMarking", String.class))
                    .containsExactly("2014-12-16", "2014-12-16", "2014-12-16", "EOD@2014-12-16");
            assertThat(out.getList("rows.targetBatchId", Long.class)).containsOnly(tb);
            // each row names the queue row it claimed and the process that enqueued its batch
            assertThat(out.getList("rows.queueId", Long.class).subList(1, 4)).isEqualTo(queueIds);
            assertThat(out.getList("rows.sourceProcessId", Long.class)).containsOnly(85L);
            assertThat(out.getString("rows[0].fileList")).startsWith("/data/85/");
            assertThat(out.getString("rows[0].batchList")).isEqualTo("11");
            given().get("/batches/" + tb).then().body("sourceInstanceExecId", equalTo((int) ie)).body("batchType", equalTo("Type1"));
            // the same run asking again gets the same answer, not a second claim
            assertThat(claim(123, ie, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId")).isEqualTo(tb);
            given().queryParam("processId", 124).queryParam("state", 0).get("/queue").then()
                    .body("items.sourceBatchId", equalTo(List.of(22, 33)));

            for (long step : List.of(124L, 125L)) {
                f.stepStarted(123, step, ie, tb);
                f.stepHalted(123, step, ie, tb);
            }
            f.jobHalted(123, ie, tb, "2014-12-16,EOD@2014-12-16");

            var enqueued = batchEvents.await(BatchEnqueued.class, e -> e.getSourceBatchId() == tb, Duration.ofSeconds(30));
            assertThat(enqueued.key()).isEqualTo("131");
            assertThat(enqueued.event().getConsumerProcessId()).isEqualTo(131);
            assertThat(enqueued.event().getSourceProcessId()).isEqualTo(123);
            assertThat(enqueued.event().getBatchMarking()).isEqualTo("2014-12-16,EOD@2014-12-16");
            var archived = batchEvents.await(BatchesArchived.class, e -> e.getTargetBatchId() == tb, Duration.ofSeconds(30));
            assertThat(archived.event().getSourceBatchIds()).containsExactlyInAnyOrder(11L, 22L, 33L);

            given().queryParam("processId", 131).get("/queue").then()
                    .body("total", equalTo(1))
                    .body("items[0].sourceBatchId", equalTo((int) tb))
                    .body("items[0].batchMarking", equalTo("2014-12-16,EOD@2014-12-16"))
                    .body("items[0].batchState", equalTo(0));
            JsonPath archive = given().queryParam("processId", 125).get("/archive").then().extract().jsonPath();
            assertThat(archive.getList("items.sourceBatchId", Long.class)).containsExactly(11L, 22L, 33L);
            assertThat(archive.getList("items.batchState", Integer.class)).containsOnly(1);
            given().queryParam("processId", 124).get("/archive").then().body("items.sourceBatchId", equalTo(List.of(11)));
            given().queryParam("processId", 124).get("/queue").then().body("items.sourceBatchId", equalTo(List.of(22, 33)));
            given().get("/lineage/batches/" + tb).then().statusCode(200).body("size()", equalTo(4));

            // a second run finds no EOD batch for 125 (124's EOD row does not count)
            claim(123, ie + 1, 1).statusCode(409).contentType("application/problem+json")
                    .body("code", equalTo(109))
                    .body("title", equalTo("Not all necessary batches are present for the sub process"))
                    .body("detail", containsString("sub_pid=125"));
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> given().queryParam("processId", 131)
                    .get("/queue").then().body("total", equalTo(1)));
        }
    }
}
