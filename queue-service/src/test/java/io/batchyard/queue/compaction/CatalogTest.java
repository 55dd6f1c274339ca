package io.batchyard.queue.compaction;

import static io.batchyard.persistence.Blocking.await;
import static io.batchyard.queue.compaction.CompactionFixture.drain;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.events.queue.ManifestPublished;
import io.batchyard.events.queue.PartitionSwitched;
import io.batchyard.queue.QueueTest;
import io.batchyard.queue.compaction.catalog.CatalogSync;
import io.batchyard.queue.compaction.catalog.Manifest;
import io.batchyard.queue.compaction.merge.MergeRange;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.partition.PartitionState;
import io.batchyard.queue.compaction.partition.SmallObject;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.EventProbe;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@QueueTest
class CatalogTest extends CompactionTestSupport {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void closeThenDelayedObjectsThenSwitchThenManifestsFollowTheMerges(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long partition = f.arrive(3, 20, 0);
        try (EventProbe events = EventProbe.on(bootstrap, Topics.QUEUE_COMPACTION)) {
            drain(compaction.worker("w"));
            CatalogSync.Summary first = await(compaction.catalog::run);
            assertThat(first.published()).contains(partition);
            assertThat(f.partition(partition).state()).isEqualTo(PartitionState.LIVE);
            ManifestPublished live = events.await(ManifestPublished.class, e -> e.getPartitionId() == partition,
                    Duration.ofSeconds(30)).event();
            assertThat(live.getVersion()).isZero();
            assertThat(live.getLocation()).endsWith("/live/dt=" + f.date + "/");

            // close: the live object set is frozen; a late arrival is delayed and stored under delayed/
            given().post("/compaction/partitions/" + partition + "/close").then().statusCode(200)
                    .body("closedNow", equalTo(true)).body("partition.state", equalTo("CLOSED"));
            long lastLive = f.partition(partition).lastLiveObjectId();
            var late = f.register(f.write(20, 0));
            SmallObject delayed = late.object();
            assertThat(delayed.delayed()).isTrue();
            assertThat(delayed.objectId()).isGreaterThan(lastLive);
            assertThat(late.storageKey()).contains("/delayed/dt=" + f.date + "/");
            assertThat(f.store.exists(late.storageKey())).isTrue();
            given().post("/compaction/partitions/" + partition + "/close").then().statusCode(200)
                    .body("closedNow", equalTo(false));

            // switch (merged ranges cover the last live object) and publish the first manifest in one sync
            CatalogSync.Summary second = await(compaction.catalog::run);
            assertThat(second.switched()).containsExactly(partition);
            Partition switched = f.partition(partition);
            assertThat(switched.state()).isEqualTo(PartitionState.SWITCHED);
            assertThat(switched.currentManifestVersion()).isEqualTo(lastLive);
            PartitionSwitched sw = events.await(PartitionSwitched.class, e -> e.getPartitionId() == partition,
                    Duration.ofSeconds(30)).event();
            assertThat(sw.getLastLiveObjectId()).isEqualTo(lastLive);
            assertThat(sw.getPartitionDate()).isEqualTo(f.date);
            Manifest before = await(() -> compaction.catalog.current(switched)).orElseThrow().manifest();
            assertThat(before.entries()).hasSize(1);
            assertThat(before.entries().get(0).url()).endsWith("part-0000000000000000000-" + String.format("%019d", lastLive) + ".jsonl");

            // the delayed object becomes visible once merged and published
            drain(compaction.worker("w"));
            assertThat(await(compaction.catalog::run).published()).containsExactly(partition);
            Partition after = f.partition(partition);
            assertThat(after.currentManifestVersion()).isEqualTo(delayed.objectId()).isEqualTo(after.desiredManifestVersion());
            ManifestPublished published = events.await(ManifestPublished.class,
                    e -> e.getPartitionId() == partition && e.getVersion() == delayed.objectId(), Duration.ofSeconds(30)).event();
            assertThat(published.getObjectCount()).isEqualTo(1);
            f.assertMergedExactlyOnce(partition);

            // manifest contents: every range, ascending, with the true sizes of the files it names
            List<MergeRange> ranges = f.ranges(partition);
            Manifest manifest = await(() -> compaction.catalog.current(after)).orElseThrow().manifest();
            assertThat(manifest.entries()).hasSameSizeAs(ranges);
            for (int i = 0; i < ranges.size(); i++) {
                MergeRange r = ranges.get(i);
                String key = ObjectKeys.merged(after.tablePrefix(), after.partitionDate(), r.lowerBound(), r.upperBound());
                assertThat(manifest.entries().get(i).url()).isEqualTo(f.store.uri(key).toString());
                assertThat(manifest.entries().get(i).meta().contentLength()).isEqualTo(r.contentLength());
            }
            assertThat(published.getTotalBytes()).isEqualTo(manifest.totalBytes());
            given().get("/compaction/partitions/" + partition + "/manifest").then().statusCode(200)
                    .body("version", equalTo((int) delayed.objectId()))
                    .body("manifest.entries.size()", equalTo(ranges.size()));
            assertThat(await(compaction.catalog::run).published()).as("nothing new: nothing published").doesNotContain(partition);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aClosedPartitionDoesNotSwitchBeforeItsLiveObjectsAreMerged(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 3600); // merges not due yet
        long partition = f.arrive(2, 5, 0);
        assertThat(await(() -> compaction.catalog.close(partition))).isPresent();
        assertThat(await(compaction.catalog::run).switched()).doesNotContain(partition);
        assertThat(f.partition(partition).state()).isEqualTo(PartitionState.CLOSED);
        // published on the live prefix at version 0: no manifest file, readers read the prefix
        given().get("/compaction/partitions/" + partition + "/manifest").then().statusCode(200)
                .body("version", equalTo(0)).body("location", org.hamcrest.Matchers.endsWith("/live/dt=" + f.date + "/"))
                .body("manifest", org.hamcrest.Matchers.nullValue());
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aPublishedManifestMissingFromTheStoreIsA503ProblemNotAServerError(TestStore store) throws Exception {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long partition = f.arrive(2, 5, 0);
        drain(compaction.worker("w"));
        await(() -> compaction.catalog.close(partition));
        await(compaction.catalog::run); // switch + the manifest of the merged objects
        Partition p = f.partition(partition);
        assertThat(p.currentManifestVersion()).isPositive();
        given().get("/compaction/partitions/" + partition + "/manifest").then().statusCode(200);
        f.store.delete(ObjectKeys.manifest(p.tablePrefix(), p.partitionDate(), p.currentManifestVersion()));

        given().get("/compaction/partitions/" + partition + "/manifest").then().statusCode(503)
                .contentType("application/problem+json").header("Retry-After", org.hamcrest.Matchers.notNullValue())
                .body("code", equalTo(320));
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void theCatalogClosesDatesThatAreOverInTheTablesZone(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 3600, LocalDate.now(ZoneOffset.UTC).minusDays(2));
        long old = f.arrive(1, 5, 0);
        long today = f.register(f.write(5, 0), LocalDate.now(ZoneOffset.UTC).plusDays(1)).object().partitionId();
        CatalogSync.Summary s = await(compaction.catalog::run);
        assertThat(s.closed()).contains(old).doesNotContain(today);
        assertThat(f.partition(today).state()).isEqualTo(PartitionState.LIVE);
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void gcDeletesSupersededMergedObjectsOnlyOnceNoPublishedManifestNamesThem(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long partition = f.arrive(2, 10, 0);
        drain(compaction.worker("w"));
        await(() -> compaction.catalog.close(partition));
        await(compaction.catalog::run); // switch + manifest of (0, u1]
        Partition p1 = f.partition(partition);
        String narrow = ObjectKeys.merged(p1.tablePrefix(), p1.partitionDate(), 0, p1.currentManifestVersion());

        f.arrive(1, 10, 0); // delayed
        drain(compaction.worker("w")); // the open range widens to (0, u2]: a new key, the old one stays
        Partition p2 = f.partition(partition);
        String wide = ObjectKeys.merged(p2.tablePrefix(), p2.partitionDate(), 0, p2.desiredManifestVersion());
        assertThat(f.store.exists(narrow)).isTrue();
        assertThat(f.store.exists(wide)).isTrue();
        assertThat(await(() -> compaction.gc.collect(p2))).as("the published manifest still names the narrow object").isEmpty();

        await(compaction.catalog::run); // manifest of (0, u2]
        given().post("/compaction/partitions/" + partition + "/gc").then().statusCode(200)
                .body("deleted", org.hamcrest.Matchers.contains(narrow));
        assertThat(f.store.exists(narrow)).isFalse();
        assertThat(f.store.exists(wide)).isTrue();
        Partition current = f.partition(partition);
        assertThat(await(() -> compaction.gc.collect(current))).isEmpty();
        f.assertMergedExactlyOnce(partition);
    }
}
