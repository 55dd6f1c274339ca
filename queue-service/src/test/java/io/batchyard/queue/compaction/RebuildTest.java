package io.batchyard.queue.compaction;

import static io.batchyard.persistence.Blocking.await;
import static io.batchyard.queue.compaction.CompactionFixture.drain;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.queue.QueueTest;
import io.batchyard.queue.compaction.merge.MergeHook;
import io.batchyard.queue.compaction.merge.MergeJobClaim;
import io.batchyard.queue.compaction.merge.MergeWorker.Outcome;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Rebuilding a switched partition from its small objects: a new manifest version with the same records, published
 * whole while readers keep the old one until then; idempotent, audited, counted, and refused with codes.
 */
@QueueTest
class RebuildTest extends CompactionTestSupport {

    @Inject
    MeterRegistry meters;

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aRebuildPublishesANewVersionWithTheSameRecordsAndReadersSwitchToItWhole(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        CompactionFixture.Malformed malformed = f.arriveAroundMalformed(3);
        long partition = malformed.partitionId();
        String bad = malformed.key();
        String path = "/compaction/partitions/" + partition;
        long published = switchAndPublish(f, partition);
        List<String> oldParts = manifestParts(f, path);
        List<String> records = lines(f, oldParts);
        assertThat(records).hasSize(f.recordsWritten(partition)).noneMatch(r -> r.contains("bad#1"));
        double done = count("DONE");
        double already = count("ALREADY");

        ValidatableResponse rebuilt = rebuild(path, "rebuild-" + partition).statusCode(200)
                .body("partitionId", equalTo((int) partition)).body("rebuiltNow", equalTo(true))
                .body("objects", equalTo(4)).body("publishedVersion", equalTo((int) published));
        long target = rebuilt.extract().jsonPath().getLong("targetVersion");
        assertThat(target).as("the rebuilt chain's version is above every version published").isGreaterThan(published);
        // while it is pending, and for the same key, a request does nothing new
        rebuild(path, null).statusCode(200).body("rebuiltNow", equalTo(false)).body("objects", equalTo(0))
                .body("targetVersion", equalTo((int) target));
        rebuild(path, "rebuild-" + partition).statusCode(200).body("rebuiltNow", equalTo(false));
        given().queryParam("partitionId", partition).get("/compaction/jobs").then().statusCode(200)
                .body("total", equalTo(1));

        // readers keep the old manifest, and its objects stay, until the rebuilt chain is published whole: a part of
        // it (a merge run of two objects, more to come) is not published
        await(compaction.catalog::run);
        readsVersion(path, published);
        var smallRuns = compaction.worker("w2", compaction.settings.withBatchSize(2), MergeHook.NONE);
        assertThat(smallRuns.runOnce()).isEqualTo(Outcome.CONTINUING);
        assertThat(f.partition(partition).desiredManifestVersion()).isGreaterThan(published).isLessThan(target);
        await(compaction.catalog::run);
        readsVersion(path, published);
        assertThat(lines(f, manifestParts(f, path))).containsExactlyInAnyOrderElementsOf(records);
        assertThat(drain(smallRuns)).doesNotContain(Outcome.FAILED);
        given().post(path + "/gc").then().statusCode(200);
        readsVersion(path, published);
        assertThat(oldParts).allMatch(key -> f.store.exists(key));
        assertThat(lines(f, manifestParts(f, path))).containsExactlyInAnyOrderElementsOf(records);

        await(compaction.catalog::run);
        readsVersion(path, target);
        List<String> newParts = manifestParts(f, path);
        assertThat(newParts).as("new merged objects, under new keys").doesNotContainAnyElementsOf(oldParts);
        assertThat(lines(f, newParts)).as("the same records, each once").containsExactlyInAnyOrderElementsOf(records);
        f.assertMergedExactlyOnce(partition);
        given().queryParam("state", "MERGED").get(path + "/objects").then().statusCode(200).body("total", equalTo(4));
        given().queryParam("state", "QUARANTINED").get(path + "/objects").then().statusCode(200)
                .body("total", equalTo(1)).body("items[0].objectKey", equalTo(bad));
        // the old manifest file itself is still there for a reader that fetched its location before the switch
        assertThat(f.store.exists(ObjectKeys.manifest(f.partition(partition).tablePrefix(), f.date, published))).isTrue();

        // fixed and released, then rebuilt: its records are in the rebuilt partition, once
        f.raw("bad", "{\"eventTime\":3,\"id\":\"fixed#1\"}\n");
        given().queryParam("objectKey", bad).post(path + "/quarantine/release").then().statusCode(200)
                .body("state", equalTo("RELEASED"));
        rebuild(path, "again-" + partition).statusCode(200).body("rebuiltNow", equalTo(true))
                .body("objects", equalTo(5));
        assertThat(drain(compaction.worker("w"))).doesNotContain(Outcome.FAILED);
        await(compaction.catalog::run);
        List<String> afterRelease = lines(f, manifestParts(f, path));
        assertThat(afterRelease).hasSize(records.size() + 1).containsAll(records)
                .filteredOn(r -> r.contains("fixed#1")).hasSize(1);
        assertThat(f.partition(partition).currentManifestVersion()).isGreaterThan(target);
        rebuild(path, "rebuild-" + partition).statusCode(200).body("rebuiltNow", equalTo(false));

        assertThat(count("DONE") - done).isEqualTo(2.0);
        assertThat(count("ALREADY") - already).isEqualTo(3.0);
        given().queryParam("limit", 5).get("/compaction/audit").then().statusCode(200)
                .body("items.action", contains("REBUILD_PARTITION", "REBUILD_PARTITION", "REBUILD_PARTITION",
                        "REBUILD_PARTITION", "REBUILD_PARTITION"))
                .body("items.result", contains("ALREADY", "DONE", "ALREADY", "ALREADY", "DONE"))
                .body("items[1].target", equalTo("partition " + partition));
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void rebuildsThatCannotBeDoneAreRefusedWithCodes(TestStore store) {
        problem(rebuild("/compaction/partitions/999999999", null), 404, 314);
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long open = f.arrive(1, 2, 0);
        problem(rebuild("/compaction/partitions/" + open, null), 409, 331);

        long partition = f.register(f.write(1, 2), f.date.plusDays(1)).object().partitionId();
        String path = "/compaction/partitions/" + partition;
        switchAndPublish(f, partition);
        // a merge of the partition running: the rebuild would renumber its inputs under it
        f.register(f.write(1, 2), f.date.plusDays(1));
        MergeJobClaim running = await(() -> compaction.jobs.claim("busy")).orElseThrow();
        assertThat(running.partitionId()).isEqualTo(partition);
        problem(rebuild(path, "k-" + partition), 409, 332);
        await(() -> compaction.jobs.fail(running, "let go by the test", Duration.ZERO, 5));
        assertThat(drain(compaction.worker("w"))).doesNotContain(Outcome.FAILED);
        rebuild(path, "k-" + partition).statusCode(200).body("rebuiltNow", equalTo(true));
        // the same key for another partition
        problem(rebuild("/compaction/partitions/" + open, "k-" + partition), 422, 334);
        problem(given().header("Idempotency-Key", "x".repeat(257)).post(path + "/rebuild").then(), 400, 1);

        // every object quarantined: nothing to rebuild from
        CompactionFixture g = new CompactionFixture(compaction, store, 0);
        String onlyBad = g.raw("bad", "not json\n");
        long emptyPartition = await(() -> compaction.registration.register(g.schema, g.table, g.date, onlyBad))
                .object().partitionId();
        switchAndPublish(g, emptyPartition);
        problem(rebuild("/compaction/partitions/" + emptyPartition, null), 409, 333);

        // a dropped table rebuilds nothing
        assertThat(drain(compaction.worker("w"))).doesNotContain(Outcome.FAILED);
        await(compaction.catalog::run);
        given().post("/compaction/tables/" + f.partition(partition).tableId() + "/drop").then().statusCode(200);
        problem(rebuild(path, null), 409, 329);
    }

    /** Merges, publishes on the live prefix, closes, switches and publishes a manifest; its version. */
    private long switchAndPublish(CompactionFixture f, long partition) {
        assertThat(drain(compaction.worker("w"))).doesNotContain(Outcome.FAILED);
        await(compaction.catalog::run);
        given().post("/compaction/partitions/" + partition + "/close").then().statusCode(200);
        await(compaction.catalog::run);
        Partition p = f.partition(partition);
        assertThat(p.switched()).isTrue();
        assertThat(p.currentManifestVersion()).isPositive();
        return p.currentManifestVersion();
    }

    private static ValidatableResponse rebuild(String path, String key) {
        var request = given();
        if (key != null) {
            request = request.header("Idempotency-Key", key);
        }
        return request.post(path + "/rebuild").then();
    }

    private static void readsVersion(String path, long version) {
        given().get(path + "/read-location").then().statusCode(200).body("kind", equalTo("MANIFEST"))
                .body("version", equalTo((int) version));
        given().get(path + "/manifest").then().statusCode(200).body("version", equalTo((int) version));
    }

    /** The store keys of the merged objects the partition's published manifest lists. */
    private static List<String> manifestParts(CompactionFixture f, String path) {
        List<String> urls = given().get(path + "/manifest").then().statusCode(200).extract().jsonPath()
                .getList("manifest.entries.url", String.class);
        String folder = ObjectKeys.mergedFolder(ObjectKeys.tablePrefix(f.schema, f.table), f.date);
        List<String> keys = new ArrayList<>();
        for (String url : urls) {
            keys.add(folder + url.substring(url.lastIndexOf('/') + 1));
        }
        return keys;
    }

    /** Every record (line) of these objects. */
    private static List<String> lines(CompactionFixture f, List<String> keys) {
        List<String> lines = new ArrayList<>();
        for (String key : keys) {
            try (var in = f.store.open(key)) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                Arrays.stream(text.split("\n")).filter(l -> !l.isEmpty()).forEach(lines::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return lines;
    }

    private double count(String result) {
        return Optional.ofNullable(meters.find("batchyard_compaction_operator_actions_total")
                .tags("action", "REBUILD_PARTITION", "result", result).counter()).map(Counter::count).orElse(0.0);
    }

    private static void problem(ValidatableResponse r, int status, int code) {
        r.statusCode(status).contentType("application/problem+json").body("code", equalTo(code));
    }
}
