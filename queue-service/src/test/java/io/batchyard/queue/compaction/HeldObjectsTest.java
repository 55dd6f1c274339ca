package io.batchyard.queue.compaction;

import static io.batchyard.persistence.Blocking.await;
import static io.batchyard.queue.compaction.CompactionFixture.drain;
import static io.batchyard.queue.compaction.CompactionRest.clockAt;
import static io.batchyard.queue.compaction.CompactionRest.put;
import static io.batchyard.queue.compaction.CompactionRest.realTime;
import static io.batchyard.queue.compaction.CompactionRest.registerOverRest;
import static io.batchyard.queue.compaction.CompactionRest.settings;
import static io.batchyard.queue.compaction.CompactionRest.tableId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.batchyard.events.queue.ObjectCreated;
import io.batchyard.queue.QueueTest;
import io.batchyard.queue.TestDatabase;
import io.batchyard.queue.compaction.ObjectRegistrationService.Registered;
import io.batchyard.queue.compaction.catalog.CatalogSync;
import io.batchyard.queue.compaction.merge.MergeWorker.Outcome;
import io.batchyard.queue.compaction.partition.SmallObject.Hold;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventPublisher;
import java.time.Duration;
import java.time.LocalDate;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The mergeable window decides for every partition whether an arrival makes a merge job: outside it the object is
 * registered and stored all the same, and held — waiting for the window to reach its partition, or, for a published
 * partition behind the window, late: left out of every merge until an operator's rebuild takes it in. The clock stands
 * at instants in the past, so other tests' pending jobs (scheduled on real time) are never due while it is moved.
 */
@QueueTest
class HeldObjectsTest extends CompactionTestSupport {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @AfterEach
    void backToRealTime() {
        realTime();
    }

    /** A fresh table (merge interval 0) with this mergeable delay. */
    private CompactionFixture table(TestStore store, LocalDate date, int mergeableDelayDays) {
        CompactionFixture f = new CompactionFixture(compaction, store, 0, date);
        put("/compaction/tables/" + tableId(f) + "/settings", settings("mergeIntervalSeconds", 0,
                "mergeableDelayDays", mergeableDelayDays)).statusCode(200);
        return f;
    }

    private long jobs(long partitionId) {
        return await(() -> compaction.jobs.count(null, partitionId));
    }

    private static long objectsIn(long partitionId, String state) {
        return given().queryParam("state", state).get("/compaction/partitions/" + partitionId + "/objects").then()
                .statusCode(200).extract().jsonPath().getLong("total");
    }

    private static long lateObjects(long partitionId) {
        return given().get("/compaction/partitions/" + partitionId).then().statusCode(200).extract().jsonPath()
                .getLong("lateObjects");
    }

    private void noFailure() {
        assertThat(drain(compaction.worker("w"))).doesNotContain(Outcome.FAILED);
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aLateObjectIsStoredListedLateAndMergedOnlyByARebuild(TestStore store) {
        LocalDate day = LocalDate.of(2026, 4, 1);
        clockAt("2026-04-02T10:00:00Z");
        CompactionFixture f = table(store, day, 1);
        long partition = f.arrive(2, 5, 0);
        noFailure();
        await(compaction.catalog::run); // the day is over at the moved clock: closed, published on the live prefix
        await(compaction.catalog::run); // switched, published as a manifest
        long published = f.partition(partition).currentManifestVersion();
        assertThat(published).isPositive();

        // one day back is the window's edge: an arrival is delayed, merged and published as before
        Registered edge = f.register(f.write(2, 0), day);
        assertThat(edge.object().hold()).isNull();
        assertThat(edge.object().delayed()).isTrue();
        assertThat(jobs(partition)).isEqualTo(1);
        noFailure();
        await(compaction.catalog::run);
        long republished = f.partition(partition).currentManifestVersion();
        assertThat(republished).isGreaterThan(published);
        f.assertMergedExactlyOnce(partition);

        // two days back, one past the edge: registered and stored, held as late; no merge job, nothing published
        clockAt("2026-04-03T10:00:00Z");
        String lateKey = f.write(3, 0);
        Registered late = f.register(lateKey, day);
        assertThat(late.created()).isTrue();
        assertThat(late.object().hold()).isEqualTo(Hold.LATE);
        assertThat(late.storageKey()).contains("/delayed/dt=" + day + "/");
        assertThat(f.store.exists(late.storageKey())).as("stored").isTrue();
        assertThat(jobs(partition)).isZero();
        registerOverRest(f, day, lateKey).statusCode(200).body("created", equalTo(false))
                .body("object.objectId", equalTo((int) late.object().objectId()))
                .body("object.hold", equalTo("LATE")).body("object.delayed", equalTo(true));
        given().queryParam("state", "LATE").get("/compaction/partitions/" + partition + "/objects").then()
                .statusCode(200).body("total", equalTo(1)).body("items[0].objectKey", equalTo(lateKey))
                .body("items[0].state", equalTo("LATE"));
        given().get("/compaction/partitions/" + partition).then().statusCode(200).body("lateObjects", equalTo(1))
                .body("currentManifestVersion", equalTo((int) republished));
        noFailure();
        assertThat(await(compaction.catalog::run).enqueued()).doesNotContain(partition);
        assertThat(jobs(partition)).isZero();
        assertThat(f.partition(partition).currentManifestVersion()).isEqualTo(republished);

        // a merge of the partition (the window widened, a new arrival) still leaves the late object out
        put("/compaction/tables/" + tableId(f) + "/settings", settings("mergeIntervalSeconds", 0,
                "mergeableDelayDays", 5)).statusCode(200);
        String again = f.write(2, 0);
        assertThat(f.register(again, day).object().hold()).isNull();
        noFailure();
        await(compaction.catalog::run);
        assertThat(f.partition(partition).currentManifestVersion()).isGreaterThan(republished);
        assertThat(f.mergedText(partition)).contains(again).doesNotContain(lateKey);
        assertThat(objectsIn(partition, "LATE")).isEqualTo(1);
        assertThat(lateObjects(partition)).isEqualTo(1);

        // the operator's rebuild takes it in: merged once, published, held no longer
        long target = given().post("/compaction/partitions/" + partition + "/rebuild").then().statusCode(200)
                .body("rebuiltNow", equalTo(true)).body("objects", equalTo(5)).extract().jsonPath()
                .getLong("targetVersion");
        noFailure();
        await(compaction.catalog::run);
        assertThat(f.partition(partition).currentManifestVersion()).isEqualTo(target);
        assertThat(f.mergedText(partition)).contains(lateKey);
        f.assertMergedExactlyOnce(partition);
        assertThat(objectsIn(partition, "LATE")).isZero();
        assertThat(objectsIn(partition, "MERGED")).isEqualTo(5);
        assertThat(lateObjects(partition)).isZero();
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void theWindowDecidesWhichPartitionsGetMergeJobsAndObjectsOutsideItWait(TestStore store) {
        clockAt("2026-06-15T12:00:00Z");
        CompactionFixture f = table(store, LocalDate.of(2026, 6, 15), 15);
        Registered behind = f.register(f.write(2, 0), LocalDate.of(2026, 5, 30)); // 16 days back
        Registered backEdge = f.register(f.write(2, 0), LocalDate.of(2026, 5, 31)); // 15 days back
        Registered aheadEdge = f.register(f.write(2, 0), LocalDate.of(2026, 6, 16)); // tomorrow
        Registered ahead = f.register(f.write(2, 0), LocalDate.of(2026, 6, 17)); // 2 days ahead
        long p0530 = behind.object().partitionId();
        long p0617 = ahead.object().partitionId();
        assertThat(behind.object().hold()).isEqualTo(Hold.WAITING);
        assertThat(ahead.object().hold()).isEqualTo(Hold.WAITING);
        assertThat(backEdge.object().hold()).isNull();
        assertThat(aheadEdge.object().hold()).isNull();
        assertThat(jobs(p0530)).isZero();
        assertThat(jobs(p0617)).isZero();
        assertThat(jobs(backEdge.object().partitionId())).isEqualTo(1);
        assertThat(jobs(aheadEdge.object().partitionId())).isEqualTo(1);
        assertThat(objectsIn(p0530, "WAITING")).isEqualTo(1);
        assertThat(objectsIn(backEdge.object().partitionId(), "PENDING")).isEqualTo(1);

        noFailure();
        f.assertMergedExactlyOnce(backEdge.object().partitionId());
        f.assertMergedExactlyOnce(aheadEdge.object().partitionId());
        CatalogSync.Summary noon = await(compaction.catalog::run);
        assertThat(noon.enqueued()).doesNotContain(p0530, p0617);
        assertThat(f.mergedText(p0530)).isEmpty();
        assertThat(f.mergedText(p0617)).isEmpty();

        // time brings the partition ahead into the window: at 23:00 the window reaches 2 days ahead
        clockAt("2026-06-15T22:59:59Z");
        assertThat(await(compaction.catalog::run).enqueued()).doesNotContain(p0617);
        assertThat(jobs(p0617)).isZero();
        clockAt("2026-06-15T23:00:00Z");
        assertThat(await(compaction.catalog::run).enqueued()).contains(p0617).doesNotContain(p0530);
        assertThat(jobs(p0617)).isEqualTo(1);
        assertThat(objectsIn(p0617, "PENDING")).isEqualTo(1);
        noFailure();
        f.assertMergedExactlyOnce(p0617);
        assertThat(objectsIn(p0617, "MERGED")).isEqualTo(1);
        assertThat(await(compaction.catalog::run).enqueued()).doesNotContain(p0617);

        // the partition behind was published on its live prefix meanwhile: a new arrival for it is late
        assertThat(f.partition(p0530).currentManifestVersion()).isZero();
        Registered late = f.register(f.write(2, 0), LocalDate.of(2026, 5, 30));
        assertThat(late.object().hold()).isEqualTo(Hold.LATE);
        // only a wider window brings it in: its waiting object merges, the late one stays out
        put("/compaction/tables/" + tableId(f) + "/settings", settings("mergeIntervalSeconds", 0,
                "mergeableDelayDays", 16)).statusCode(200);
        assertThat(await(compaction.catalog::run).enqueued()).contains(p0530);
        noFailure();
        assertThat(objectsIn(p0530, "WAITING")).isZero();
        assertThat(objectsIn(p0530, "MERGED")).isEqualTo(1);
        assertThat(objectsIn(p0530, "LATE")).isEqualTo(1);
        assertThat(f.mergedText(p0530)).contains(behind.object().sourceKey())
                .doesNotContain(late.object().sourceKey());
        await(compaction.catalog::run); // switched: the late object is not live, the merges reached the live one
        assertThat(f.partition(p0530).switched()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void theHourOfLagDecidesAtBothEdgesOfTheDay(TestStore store) {
        LocalDate back = LocalDate.of(2026, 5, 30);
        LocalDate forward = LocalDate.of(2026, 6, 17);
        clockAt("2026-06-15T00:59:59Z"); // within the first hour of the day the window still reaches 16 days back
        CompactionFixture early = table(store, back, 15);
        assertThat(early.register(early.write(1, 0), back).object().hold()).isNull();
        assertThat(early.register(early.write(1, 0), forward).object().hold()).isEqualTo(Hold.WAITING);
        clockAt("2026-06-15T01:00:00Z");
        CompactionFixture later = table(store, back, 15);
        assertThat(later.register(later.write(1, 0), back).object().hold()).isEqualTo(Hold.WAITING);
        clockAt("2026-06-15T22:59:59Z");
        assertThat(later.register(later.write(1, 0), forward).object().hold()).isEqualTo(Hold.WAITING);
        clockAt("2026-06-15T23:00:00Z"); // within the last hour of the day the window reaches 2 days ahead
        CompactionFixture last = table(store, forward, 15);
        long partition = last.arrive(1, 1, 0);
        assertThat(jobs(partition)).isEqualTo(1);
        noFailure();
        last.assertMergedExactlyOnce(partition);
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aRebuildOfAPartitionNotSwitchedYetTakesItsLateObjectsIn(TestStore store) {
        LocalDate day = LocalDate.of(2026, 5, 29);
        clockAt("2026-06-15T12:00:00Z");
        CompactionFixture f = table(store, day, 15);
        long partition = f.arrive(1, 4, 0); // behind the window, not published: it waits
        assertThat(objectsIn(partition, "WAITING")).isEqualTo(1);
        await(compaction.catalog::run); // closed and published on the live prefix, never merged
        given().get("/compaction/partitions/" + partition).then().statusCode(200).body("state", equalTo("CLOSED"))
                .body("currentManifestVersion", equalTo(0)).body("switched", equalTo(false));
        assertThat(f.partition(partition).lastLiveObjectId()).isNotNull();
        assertThat(f.register(f.write(1, 0), day).object().hold()).isEqualTo(Hold.LATE);
        String lateKey = f.write(2, 0);
        Registered late = f.register(lateKey, day);
        registerOverRest(f, day, lateKey).statusCode(200).body("object.hold", equalTo("LATE"))
                .body("storageKey", equalTo(late.storageKey())).body("storageKey", containsString("/delayed/"));
        // a late object announced by an ObjectCreated event is registered and held the same way, not set aside as
        // unroutable
        String announced = f.write(2, 0);
        try (EventPublisher publisher = new EventPublisher(bootstrap)) {
            publisher.publish(Topics.QUEUE_OBJECTS, f.schema + "." + f.table, ObjectCreated.newBuilder()
                    .setHeader(Events.header("producer-test", null, null)).setSchemaName(f.schema)
                    .setTableName(f.table).setPartitionDate(day).setObjectKey(announced).build());
        }
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> lateObjects(partition) == 3);
        f.written(partition, announced);
        assertThat(TestDatabase.number("SELECT count(*) FROM unknown_object WHERE schema_name = '" + f.schema + "'"))
                .isZero();
        assertThat(jobs(partition)).isZero();

        given().post("/compaction/partitions/" + partition + "/rebuild").then().statusCode(200)
                .body("rebuiltNow", equalTo(true)).body("objects", equalTo(3)).body("publishedVersion", equalTo(0))
                .body("targetVersion", nullValue());
        assertThat(jobs(partition)).isEqualTo(1);
        noFailure();
        await(compaction.catalog::run); // switched
        await(compaction.catalog::run); // published as a manifest
        assertThat(f.partition(partition).currentManifestVersion()).isPositive();
        f.assertMergedExactlyOnce(partition);
        assertThat(f.mergedText(partition)).contains(lateKey);
        assertThat(lateObjects(partition)).isZero();
        assertThat(objectsIn(partition, "MERGED")).isEqualTo(4);
        // with no late object left, a partition that is switched now rebuilds as usual (not 331)
        given().post("/compaction/partitions/" + partition + "/rebuild").then().statusCode(200)
                .body("rebuiltNow", equalTo(true));
    }
}
