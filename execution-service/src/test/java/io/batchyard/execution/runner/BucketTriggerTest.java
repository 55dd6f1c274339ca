package io.batchyard.execution.runner;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.execution.StubQueue;
import io.batchyard.execution.bucket.BucketGrain;
import io.batchyard.execution.deployment.DeployPoller;
import io.batchyard.execution.deployment.Deployment;
import io.batchyard.execution.trigger.TriggerSweep;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.ProcessTrees;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Bucket-aware triggers on the runner, with BatchEnqueued records on the real topic: an hourly UTC producer feeding a
 * daily Europe/Berlin consumer (24, 23 and 25 batches, one run claiming exactly them), each policy, coalescing,
 * pause with preview and resume (catch-up and skip), and a timeout on the movable clock.
 */
@ExecutionTest
class BucketTriggerTest extends RunnerTestSupport {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Inject
    DeployPoller poller;

    @Inject
    TriggerSweep sweep;

    /** A live stand-alone parent that produces batches (it only needs to exist, with its declared grain). */
    private long producer(Map<String, Object> declaration) {
        long u = RunnerFixtures.id(), us = RunnerFixtures.id();
        f.register(ProcessTrees.parent(u).workflowType(2).next(us).step(us, st -> st.next(u)));
        if (declaration != null) {
            trigger(u, declaration);
        }
        return u;
    }

    /** A deployed one-step parent with these trigger settings; its step, enqueued by {@code inputs}, logs its bucket. */
    private long consumer(Map<String, Object> settings, long... inputs) {
        long p = RunnerFixtures.id(), s = RunnerFixtures.id();
        int type = (int) p;
        String record = f.script("record" + p + ".sh", "echo \"$BATCHYARD_BUCKET\" >> " + f.file("calls-" + p));
        f.register(ProcessTrees.parent(p).processType(type).workflowType(2).next(s)
                .step(s, st -> st.enqueuedBy(inputs).property("script", "run", record).next(p)));
        f.policy(p, Map.of());
        deploy(p, type);
        trigger(p, settings);
        return p;
    }

    private static void trigger(long p, Map<String, Object> settings) {
        given().contentType(ContentType.JSON).body(settings).put("/processes/" + p + "/trigger").then().statusCode(200);
    }

    private void deploy(long p, int type) {
        try {
            Path script = f.scriptDir.resolve(Deployment.scriptFor(type));
            Files.writeString(script, "#!/bin/sh\ntrue\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long id = given().post("/processes/" + p + "/deployments").then().statusCode(201).extract().jsonPath()
                .getLong("deploymentId");
        await().atMost(WAIT).until(() -> {
            poller.pollOnce();
            return "SUCCESS".equals(given().get("/deployments/" + id).then().extract().jsonPath().getString("status"));
        });
    }

    /** Publishes a batch of {@code source} with {@code marking} for the parent's only step. */
    private void enqueue(long parent, long batch, Long source, String marking) {
        BatchEnqueued event = BatchEnqueued.newBuilder().setHeader(Events.header("queue-service", null, null))
                .setQueueId(batch).setSourceBatchId(batch).setSourceProcessId(source)
                .setConsumerProcessId(parent + 1).setBatchMarking(marking).build();
        f.publisher.publish(Topics.QUEUE_BATCHES, parent + 1, event);
    }

    private static JsonPath runs(long p) {
        return given().queryParam("limit", 100).get("/processes/" + p + "/trigger/runs").then().statusCode(200)
                .extract().jsonPath();
    }

    private static int inputs(long p) {
        return runs(p).getList("items.batches.flatten()").size();
    }

    /** The source batches the parent's last claim named. */
    private static List<Long> claimed(long p) {
        String claim = StubQueue.lastClaim(p);
        return claim == null ? List.of() : JsonPath.from(claim).getList("sourceBatchIds", Long.class);
    }

    private static JsonPath why(long p) {
        return given().get("/why/" + p).then().statusCode(200).extract().jsonPath();
    }

    @Test
    void anHourlyUtcProducerFeedsADailyBerlinConsumer23And24And25BatchesAndEachDayRunsOnceClaimingExactlyThem() {
        long u = producer(Map.of("policy", "none", "grain", "hour", "zone", "UTC"));
        long p = consumer(Map.of("policy", "all", "grain", "day", "zone", "Europe/Berlin"), u);
        long batch = p * 1000;
        for (String day : List.of("20260329", "20260328", "20261025")) {
            List<String> hours = BucketGrain.HOUR.keysStartingIn(BucketGrain.DAY.span(day, BERLIN).orElseThrow(),
                    ZoneOffset.UTC);
            List<Long> sent = new ArrayList<>();
            for (String hour : hours.subList(0, hours.size() - 1)) {
                sent.add(++batch);
                enqueue(p, batch, u, hour);
            }
            // every hour but the last: the day waits, and /why says for which hour
            await().atMost(WAIT).untilAsserted(() -> {
                JsonPath why = why(p);
                assertThat(why.getString("waiting.find { it.bucket == '" + day + "' }.arrived"))
                        .isEqualTo(String.valueOf(hours.size() - 1));
                assertThat(why.getInt("waiting.find { it.bucket == '" + day + "' }.expected")).isEqualTo(hours.size());
                assertThat(why.getList("waiting.find { it.bucket == '" + day + "' }.missing[0].buckets", String.class))
                        .containsExactly(hours.get(hours.size() - 1));
            });
            assertThat(why(p).getString("reasons.find { it.code == 'WAITING_FOR_BUCKET' }.message")).contains(day);
            sent.add(++batch);
            enqueue(p, batch, u, hours.get(hours.size() - 1));

            await().atMost(WAIT).until(() -> "COMPLETE".equals(f.status(p, day)));
            assertThat(claimed(p)).as("day %s", day).containsExactlyElementsOf(sent);
            JsonPath run = runs(p);
            assertThat(run.getString("items[0].bucket")).isEqualTo(day);
            assertThat(run.getString("items[0].state")).isEqualTo("STARTED");
            assertThat(run.getList("items[0].batches")).hasSize(hours.size());
            assertThat(run.getString("items[0].batches[0].inputBucket")).isEqualTo(hours.get(0));
            assertThat(run.getLong("items[0].instanceExecId")).isPositive();
        }
        assertThat(hoursOf("20260329")).isEqualTo(23);
        assertThat(f.lines("calls-" + p)).containsExactly("20260329", "20260328", "20261025");
        assertThat(runs(p).getInt("total")).isEqualTo(3);
    }

    private static int hoursOf(String day) {
        return BucketGrain.HOUR.keysStartingIn(BucketGrain.DAY.span(day, BERLIN).orElseThrow(), ZoneOffset.UTC).size();
    }

    @Test
    void allAnyOfAndNOfStartWhenTheirInputsAreCompleteAndALaterInputIsShownAsLate() {
        long u1 = producer(null), u2 = producer(null), u3 = producer(null);
        long all = consumer(Map.of("policy", "all"), u1, u2);
        long any = consumer(Map.of("policy", "any-of"), u1, u2);
        long nOf = consumer(Map.of("policy", "n-of", "n", 2), u1, u2, u3);

        enqueue(all, all * 10, u1, "D1");
        enqueue(any, any * 10, u2, "D1");
        enqueue(nOf, nOf * 10, u1, "D1");
        await().atMost(WAIT).until(() -> "COMPLETE".equals(f.status(any, "D1")));
        await().atMost(WAIT).until(() -> why(all).getList("waiting.bucket").contains("D1")
                && why(nOf).getList("waiting.bucket").contains("D1"));
        assertThat(f.status(all, "D1")).isNull();
        assertThat(why(all).getList("waiting[0].missing.processId", Long.class)).containsExactly(u2);

        enqueue(all, all * 10 + 1, u2, "D1");
        enqueue(nOf, nOf * 10 + 1, u3, "D1");
        await().atMost(WAIT).until(() -> "COMPLETE".equals(f.status(all, "D1"))
                && "COMPLETE".equals(f.status(nOf, "D1")));
        assertThat(claimed(all)).containsExactly(all * 10, all * 10 + 1);
        assertThat(claimed(nOf)).containsExactly(nOf * 10, nOf * 10 + 1);
        assertThat(runs(nOf).getString("items[0].reason")).contains("n-of: 2 of 3");

        // u2 comes after the n-of run started: recorded as late, shown with the run, no second run
        enqueue(nOf, nOf * 10 + 2, u2, "D1");
        await().atMost(WAIT).until(() -> runs(nOf).getInt("items[0].late") == 1);
        assertThat(runs(nOf).getInt("total")).isEqualTo(1);
        assertThat(f.lines("calls-" + nOf)).containsExactly("D1");
    }

    @Test
    void pausedInputsCoalesceIntoOnePendingRunThatAResumeStartsClaimingAllItsBatches() {
        long u = producer(null);
        long p = consumer(Map.of("policy", "each"), u);
        given().post("/processes/" + p + "/trigger/pause").then().statusCode(200)
                .body("paused", org.hamcrest.Matchers.equalTo(true));
        for (int i = 0; i < 5; i++) {
            enqueue(p, p * 10 + i, u, "M");
        }
        await().atMost(WAIT).until(() -> inputs(p) == 5);
        JsonPath pending = runs(p);
        assertThat(pending.getInt("total")).isEqualTo(1);
        assertThat(pending.getString("items[0].state")).isEqualTo("PENDING");
        assertThat(pending.getList("items[0].batches.sourceBatchId", Long.class))
                .containsExactlyInAnyOrder(p * 10, p * 10 + 1, p * 10 + 2, p * 10 + 3, p * 10 + 4);
        assertThat(why(p).getList("reasons.code", String.class)).contains("TRIGGER_PAUSED");
        assertThat(f.status(p, "M")).isNull();

        JsonPath preview = given().get("/processes/" + p + "/trigger/resume-preview").then().statusCode(200)
                .extract().jsonPath();
        assertThat(preview.getString("mode")).isEqualTo("catch-up");
        assertThat(preview.getList("start.bucket", String.class)).containsExactly("M");
        assertThat(preview.getList("skip")).isEmpty();

        given().contentType(ContentType.JSON).body(Map.of("mode", "catch-up")).post("/processes/" + p
                + "/trigger/resume").then().statusCode(200).body("start.bucket", org.hamcrest.Matchers.contains("M"));
        await().atMost(WAIT).until(() -> "COMPLETE".equals(f.status(p, "M")));
        assertThat(claimed(p)).containsExactly(p * 10, p * 10 + 1, p * 10 + 2, p * 10 + 3, p * 10 + 4);
        assertThat(runs(p).getString("items[0].state")).isEqualTo("STARTED");
        assertThat(f.lines("calls-" + p)).containsExactly("M");
    }

    @Test
    void aResumeWithCatchUpStartsEveryDueBucketOldestFirst() {
        long u = producer(null);
        long p = consumer(Map.of("policy", "each"), u);
        given().post("/processes/" + p + "/trigger/pause").then().statusCode(200);
        enqueue(p, p * 10 + 3, u, "20260203");
        enqueue(p, p * 10 + 1, u, "20260201");
        enqueue(p, p * 10 + 2, u, "20260202");
        await().atMost(WAIT).until(() -> runs(p).getInt("total") == 3);
        assertThat(given().get("/processes/" + p + "/trigger/resume-preview").then().statusCode(200).extract()
                .jsonPath().getList("start.bucket", String.class)).containsExactly("20260201", "20260202", "20260203");

        given().contentType(ContentType.JSON).body(Map.of("mode", "catch-up")).post("/processes/" + p
                + "/trigger/resume").then().statusCode(200);
        await().atMost(WAIT).until(() -> "COMPLETE".equals(f.status(p, "20260203"))
                && "COMPLETE".equals(f.status(p, "20260201")) && "COMPLETE".equals(f.status(p, "20260202")));
        assertThat(f.lines("calls-" + p)).containsExactly("20260201", "20260202", "20260203");
        assertThat(runs(p).getList("items.state", String.class)).containsOnly("STARTED");
    }

    @Test
    void aResumeWithSkipStartsOnlyTheNewestDueBucketAndSkipsTheOlderOnes() {
        long u = producer(null);
        long p = consumer(Map.of("policy", "each"), u);
        given().post("/processes/" + p + "/trigger/pause").then().statusCode(200);
        enqueue(p, p * 10 + 1, u, "20260101");
        enqueue(p, p * 10 + 2, u, "20260102");
        enqueue(p, p * 10 + 3, u, "20260103");
        await().atMost(WAIT).until(() -> runs(p).getInt("total") == 3);

        JsonPath preview = given().queryParam("mode", "skip").get("/processes/" + p + "/trigger/resume-preview")
                .then().statusCode(200).extract().jsonPath();
        assertThat(preview.getList("start.bucket", String.class)).containsExactly("20260103");
        assertThat(preview.getList("skip.bucket", String.class)).containsExactly("20260101", "20260102");

        JsonPath resumed = given().contentType(ContentType.JSON).body(Map.of("mode", "skip"))
                .post("/processes/" + p + "/trigger/resume").then().statusCode(200).extract().jsonPath();
        assertThat(resumed.getList("skip.state", String.class)).containsOnly("SKIPPED");
        await().atMost(WAIT).until(() -> "COMPLETE".equals(f.status(p, "20260103")));
        assertThat(claimed(p)).containsExactly(p * 10 + 3);
        Map<String, String> states = new HashMap<>();
        JsonPath after = runs(p);
        for (int i = 0; i < 3; i++) {
            states.put(after.getString("items[" + i + "].bucket"), after.getString("items[" + i + "].state"));
        }
        assertThat(states).containsEntry("20260101", "SKIPPED").containsEntry("20260102", "SKIPPED")
                .containsEntry("20260103", "STARTED");
        assertThat(f.status(p, "20260101")).isNull();
        assertThat(f.lines("calls-" + p)).containsExactly("20260103");
        // resuming again: not paused any more
        given().contentType(ContentType.JSON).body(Map.of("mode", "skip")).post("/processes/" + p + "/trigger/resume")
                .then().statusCode(409).body("code", org.hamcrest.Matchers.equalTo(437));
    }

    @Test
    void withoutCoalescingEachInputOfABucketIsARunOfItsOwn() {
        long u = producer(null);
        long p = consumer(Map.of("policy", "each", "coalesce", false), u);
        given().post("/processes/" + p + "/trigger/pause").then().statusCode(200);
        enqueue(p, p * 10, u, "M");
        enqueue(p, p * 10 + 1, u, "M");
        await().atMost(WAIT).until(() -> runs(p).getInt("total") == 2);
        assertThat(runs(p).getList("items.collect { it.batches.size() }", Integer.class)).containsExactly(1, 1);
    }

    @Test
    void anAllWithTimeoutBucketRunsWithWhatArrivedOnceItsTimeoutPassedOnTheServiceClockAndSaysWhatWasMissing() {
        long u1 = producer(null), u2 = producer(null);
        long p = consumer(Map.of("policy", "all-with-timeout", "timeout", "PT1H"), u1, u2);
        enqueue(p, p * 10, u1, "T1");
        await().atMost(WAIT).until(() -> why(p).getList("waiting.bucket").contains("T1"));
        assertThat(why(p).getString("waiting[0].timeoutAt")).isNotNull();
        assertThat(sweep.sweepOnce().stream().noneMatch(d -> d.parentId() == p)).isTrue();
        try {
            given().contentType(ContentType.JSON).body(Map.of("offsetSeconds", 7200)).put("/admin/clock").then()
                    .statusCode(200);
            assertThat(sweep.sweepOnce().stream().filter(d -> d.parentId() == p)).hasSize(1);
        } finally {
            given().delete("/admin/clock").then().statusCode(200);
        }
        await().atMost(WAIT).until(() -> "COMPLETE".equals(f.status(p, "T1")));
        JsonPath run = runs(p);
        assertThat(run.getString("items[0].reason")).contains("timeout passed", "1 of 2");
        assertThat(run.getList("items[0].missing.processId", Long.class)).containsExactly(u2);
        assertThat(claimed(p)).containsExactly(p * 10);
        // swept once: a second sweep fires nothing more for it
        assertThat(sweep.sweepOnce().stream().noneMatch(d -> d.parentId() == p)).isTrue();
    }
}
