package io.batchyard.queue.backfill;

import static io.batchyard.queue.QueueFixtures.claim;
import static io.batchyard.queue.QueueFixtures.enqueueBatch;
import static io.batchyard.queue.QueueFixtures.nextId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.batchyard.queue.QueueFixtures;
import io.batchyard.queue.QueueTest;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.identity.Identity;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The impact walk against the real queue and archive, filled the way execution-service and the lifecycle topic fill
 * them: claims, step events and JobHalted.
 */
@QueueTest
class ImpactTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    /** A run of a job with one step, to its end: claim, step started and halted, JobHalted, archived. */
    private record Run(long runId, long target) {
    }

    private static Run complete(QueueFixtures f, long parent, long step, String bucket) {
        long ie = nextId();
        long tb = claim(parent, ie, 1).statusCode(200).extract().jsonPath().getLong("targetBatchId");
        f.stepStarted(parent, step, ie, tb);
        f.stepHalted(parent, step, ie, tb);
        f.jobHalted(parent, ie, tb, bucket);
        await().atMost(Duration.ofSeconds(30)).until(() -> given().queryParam("processId", step)
                .queryParam("limit", 500).get("/archive").then().extract().jsonPath()
                .getList("items.targetBatchId", Long.class).contains(tb));
        return new Run(ie, tb);
    }

    private static JsonPath impact(List<Long> roots, List<Long> runs, List<Long> restated, boolean cascade) {
        return given().auth().oauth2(Identity.get().serviceToken("execution")).contentType(ContentType.JSON)
                .body(Map.of("rootProcessIds", roots, "rootRunIds", runs, "restatedBatchIds", restated,
                        "cascade", cascade))
                .post("/internal/backfills/impact").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void aDiamondListsEachRunThatConsumedTheRestatedBucketOnceAndNothingElse() {
        long a = nextId(), as = nextId(), b = nextId(), bs = nextId(), c = nextId(), cs = nextId(), d = nextId(),
                ds = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(a).next(as).step(as, s -> s.next(a)));
            f.register(ProcessTrees.parent(b).next(bs).step(bs, s -> s.enqueuedBy(a).next(b)));
            f.register(ProcessTrees.parent(c).next(cs).step(cs, s -> s.enqueuedBy(a).next(c)));
            f.register(ProcessTrees.parent(d).next(ds).step(ds, s -> s.enqueuedBy(b, c).next(d)));
            Run a1 = complete(f, a, as, "20260301");
            Run a2 = complete(f, a, as, "20260302");
            Run b1 = complete(f, b, bs, "20260301");
            Run b2 = complete(f, b, bs, "20260302");
            Run c1 = complete(f, c, cs, "20260301");
            Run c2 = complete(f, c, cs, "20260302");
            Run d1 = complete(f, d, ds, "20260301");
            complete(f, d, ds, "20260302");

            JsonPath plan = impact(List.of(a), List.of(a1.runId()), List.of(), true);
            assertThat(plan.getList("units.runId", Long.class))
                    .containsExactlyInAnyOrder(a1.runId(), b1.runId(), c1.runId(), d1.runId());
            assertThat(plan.getList("units.status", String.class)).containsOnly("COMPLETED");
            assertThat(plan.getList("units.findAll { it.root }.processId", Long.class)).containsExactly(a);
            assertThat(plan.getList("units.find { it.runId == " + d1.runId() + " }.inputBatchIds", Long.class))
                    .containsExactly(Math.min(b1.target(), c1.target()), Math.max(b1.target(), c1.target()));
            assertThat(plan.getList("units.find { it.runId == " + d1.runId() + " }.causes.runId", Long.class))
                    .containsExactlyInAnyOrder(b1.runId(), c1.runId());
            assertThat(plan.getList("units.find { it.runId == " + b1.runId() + " }.causes.batchId", Long.class))
                    .containsExactly(a1.target());
            assertThat(plan.getString("units.find { it.runId == " + b1.runId() + " }.marking")).isEqualTo("20260301");

            JsonPath alone = impact(List.of(a), List.of(a1.runId()), List.of(), false);
            assertThat(alone.getList("units.runId", Long.class)).containsExactly(a1.runId());

            // two buckets restated: two disjoint chains, still nothing of another bucket twice
            JsonPath both = impact(List.of(a), List.of(a1.runId(), a2.runId()), List.of(), true);
            assertThat(both.getList("units.runId", Long.class)).hasSize(8).doesNotHaveDuplicates()
                    .contains(b2.runId(), c2.runId());
        }
    }

    @Test
    void aRestatedBatchMakesTheRunThatConsumedItAndTheRowStillWaitingForItRoots() {
        long ingest = nextId(), r = nextId(), rs = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(ingest).next(nextId()));
            f.register(ProcessTrees.parent(r).next(rs).step(rs, s -> s.enqueuedBy(ingest).next(r)));
            long consumed = enqueueBatch(ingest, null, "20260301");
            long waiting = enqueueBatch(ingest, null, "20260302");
            Run run = complete(f, r, rs, "20260301");

            JsonPath plan = impact(List.of(r), List.of(), List.of(consumed, waiting), true);
            assertThat(plan.getList("units.status", String.class)).containsExactlyInAnyOrder("COMPLETED", "MISSING");
            assertThat(plan.getLong("units.find { it.status == 'COMPLETED' }.runId")).isEqualTo(run.runId());
            assertThat(plan.getList("units.find { it.status == 'MISSING' }.inputBatchIds", Long.class))
                    .containsExactly(waiting);
            assertThat(plan.getList("units.root", Boolean.class)).containsOnly(true);
            // a process that is not a root is not listed for the batch it consumed
            assertThat(impact(List.of(ingest), List.of(), List.of(consumed), true).getList("units")).isEmpty();
        }
    }

    @Test
    void theFingerprintHoldsWhileNothingChangesAndMovesWhenARowItReadChanges() {
        long a = nextId(), as = nextId(), b = nextId(), bs = nextId(), late = nextId(), ls = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(a).next(as).step(as, s -> s.next(a)));
            f.register(ProcessTrees.parent(b).next(bs).step(bs, s -> s.enqueuedBy(a).next(b)));
            f.register(ProcessTrees.parent(late).next(ls).step(ls, s -> s.enqueuedBy(a).next(late)));
            Run a1 = complete(f, a, as, "20260301");
            String first = impact(List.of(a), List.of(a1.runId()), List.of(), true).getString("fingerprint");
            assertThat(impact(List.of(a), List.of(a1.runId()), List.of(), true).getString("fingerprint"))
                    .isEqualTo(first);

            complete(f, b, bs, "20260301"); // b consumes a's batch: the archive changed under the first answer
            JsonPath after = impact(List.of(a), List.of(a1.runId()), List.of(), true);
            assertThat(after.getString("fingerprint")).isNotEqualTo(first);
            assertThat(after.getList("units.processId", Long.class)).containsExactlyInAnyOrder(a, b);
        }
    }

    private static ValidatableResponse reenqueue(UUID backfill, long batch, long job, Long offered) {
        Map<String, Object> body = new HashMap<>();
        body.put("backfillId", backfill.toString());
        body.put("batchId", batch);
        body.put("processId", job);
        body.put("offeredBatchId", offered);
        return given().auth().oauth2(Identity.get().serviceToken("execution")).contentType(ContentType.JSON)
                .body(body).post("/internal/backfills/reenqueue").then();
    }

    private static ValidatableResponse backfillClaim(long parent, long run, UUID backfill, List<Long> sources) {
        Map<String, Object> body = new HashMap<>();
        body.put("parentProcessId", parent);
        body.put("instanceExecId", run);
        body.put("sourceBatchIds", sources);
        body.put("backfillId", backfill.toString());
        return given().auth().oauth2(Identity.get().serviceToken("execution")).contentType(ContentType.JSON).body(body)
                .post("/internal/claims").then();
    }

    @Test
    void aReenqueuedBatchSupersedesTheArchivedConsumptionOnceAndTheNextRunClaimsIt() {
        long a = nextId(), as = nextId(), b = nextId(), bs = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(a).next(as).step(as, s -> s.next(a)));
            f.register(ProcessTrees.parent(b).next(bs).step(bs, s -> s.enqueuedBy(a).next(b)));
            Run a1 = complete(f, a, as, "20260301");
            complete(f, b, bs, "20260301");
            UUID backfill = UUID.randomUUID();

            JsonPath made = reenqueue(backfill, a1.target(), b, null).statusCode(200).extract().jsonPath();
            long archived = given().queryParam("processId", bs).get("/archive").then().extract().jsonPath()
                    .getLong("items.find { it.sourceBatchId == " + a1.target() + " }.queueId");
            assertThat(made.getList("rows.processId", Long.class)).as("offered to b's step").containsExactly(bs);
            assertThat(made.getLong("rows[0].supersededQueueId")).isEqualTo(archived);
            assertThat(made.getLong("rows[0].batchId")).isEqualTo(a1.target());
            assertThat(made.getString("rows[0].batchMarking")).isEqualTo("20260301");
            long queueId = made.getLong("rows[0].queueId");
            assertThat(reenqueue(backfill, a1.target(), b, null).statusCode(200).extract().jsonPath()
                    .getList("rows.queueId", Long.class)).as("a repeat answers the same row").containsExactly(queueId);
            given().queryParam("processId", bs).get("/queue").then()
                    .body("items.queueId", equalTo(List.of(Math.toIntExact(queueId))))
                    .body("items[0].batchState", equalTo(0));
            // another backfill cannot offer it again while it waits; a job whose steps never consumed it neither
            reenqueue(UUID.randomUUID(), a1.target(), b, null).statusCode(409).body("code", equalTo(340));
            reenqueue(backfill, a1.target(), a, null).statusCode(409).body("code", equalTo(340));
            // the backfill's run of b claims exactly the superseding row
            JsonPath claimed = claim(b, nextId(), 1).statusCode(200).extract().jsonPath();
            assertThat(claimed.getList("rows.sourceBatchId", Long.class)).containsExactly(a1.target());
            assertThat(claimed.getList("rows.queueId", Long.class)).containsExactly(queueId);
        }
    }

    @Test
    void aBackfillRunsOutputGoesToNoOneUntilTheBackfillOffersItInPlaceOfTheBatchItSupersedes() {
        long a = nextId(), as = nextId(), b = nextId(), bs = nextId();
        try (QueueFixtures f = new QueueFixtures(bootstrap)) {
            f.register(ProcessTrees.parent(a).next(as).step(as, s -> s.next(a)));
            f.register(ProcessTrees.parent(b).next(bs).step(bs, s -> s.enqueuedBy(a).next(b)));
            Run a1 = complete(f, a, as, "20260301");
            Run b1 = complete(f, b, bs, "20260301");
            UUID backfill = UUID.randomUUID();

            // the backfill re-runs a (a source job: its step reads no batch)
            long ie = nextId();
            long a2 = backfillClaim(a, ie, backfill, null).statusCode(200).extract().jsonPath()
                    .getLong("targetBatchId");
            f.stepStarted(a, as, ie, a2);
            f.stepHalted(a, as, ie, a2);
            f.jobHalted(a, ie, a2, "20260301");
            await().atMost(Duration.ofSeconds(30)).until(() -> given().queryParam("processId", as)
                    .queryParam("limit", 500).get("/archive").then().extract().jsonPath()
                    .getList("items.targetBatchId", Long.class).contains(a2));
            // a live run's output would wait for b's step now; the backfill's does not
            given().queryParam("processId", bs).get("/queue").then().body("items", hasSize(0));

            // the backfill offers a2 to b's step in place of a1's output, which b1 consumed
            JsonPath offered = reenqueue(backfill, a1.target(), b, a2).statusCode(200).extract().jsonPath();
            assertThat(offered.getList("rows.batchId", Long.class)).containsExactly(a2);
            long superseded = given().queryParam("processId", bs).get("/archive").then().extract().jsonPath()
                    .getLong("items.find { it.targetBatchId == " + b1.target() + " }.queueId");
            assertThat(offered.getLong("rows[0].supersededQueueId")).isEqualTo(superseded);
            JsonPath claimed = backfillClaim(b, nextId(), backfill, List.of(a2)).statusCode(200).extract().jsonPath();
            assertThat(claimed.getList("rows.sourceBatchId", Long.class)).containsExactly(a2);
            assertThat(claimed.getString("rows[0].batchMarking")).isEqualTo("20260301");
        }
    }
}
