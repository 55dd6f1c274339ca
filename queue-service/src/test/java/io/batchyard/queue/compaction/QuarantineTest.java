package io.batchyard.queue.compaction;

import static io.batchyard.persistence.Blocking.await;
import static io.batchyard.queue.compaction.CompactionFixture.drain;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.batchyard.queue.QueueTest;
import io.batchyard.queue.compaction.merge.MergeWorker.Outcome;
import io.batchyard.queue.compaction.partition.Partition;
import io.restassured.response.ValidatableResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A bad small object is set aside, the rest of its partition merges and publishes, and an operator decides. */
@QueueTest
class QuarantineTest extends CompactionTestSupport {

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aMalformedObjectIsQuarantinedTheRestMergesAndAnOperatorReleasesOrDropsIt(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        CompactionFixture.Malformed malformed = f.arriveAroundMalformed(2);
        long partition = malformed.partitionId();
        String bad = malformed.key();
        long badId = malformed.objectId();
        String path = "/compaction/partitions/" + partition;

        given().get(path + "/read-location").then().statusCode(200).body("kind", equalTo("LIVE_PREFIX"))
                .body("published", equalTo(false)).body("version", nullValue())
                .body("location", endsWith("/live/dt=" + f.date + "/"));

        assertThat(drain(compaction.worker("w"))).as("bad data is not a failed attempt").doesNotContain(Outcome.FAILED)
                .last().isEqualTo(Outcome.FINISHED);
        assertThat(await(() -> compaction.jobs.list(null, partition, 10, 0))).as("no job left, none dead").isEmpty();
        given().get(path + "/quarantine").then().statusCode(200).body("total", equalTo(1))
                .body("items[0].objectKey", equalTo(bad)).body("items[0].objectId", equalTo((int) badId))
                .body("items[0].lineNumber", equalTo(2)).body("items[0].state", equalTo("QUARANTINED"))
                .body("items[0].schemaName", equalTo(f.schema)).body("items[0].partitionDate", equalTo(f.date.toString()))
                .body("items[0].error", containsString("not valid JSON"));
        f.assertMergedExactlyOnce(partition);
        assertThat(f.mergedText(partition)).doesNotContain("bad#1");
        assertThat(f.ranges(partition).get(f.ranges(partition).size() - 1).upperBound()).isGreaterThan(badId);
        given().queryParam("state", "merged").get(path + "/objects").then().statusCode(200).body("total", equalTo(3));
        given().queryParam("state", "QUARANTINED").get(path + "/objects").then().statusCode(200)
                .body("total", equalTo(1)).body("items[0].objectKey", equalTo(bad));
        given().queryParam("limit", 2).get(path + "/objects").then().statusCode(200).body("total", equalTo(4))
                .body("items.size()", equalTo(2)).body("limit", equalTo(2));
        given().get(path + "/ranges").then().statusCode(200).body("total", equalTo(f.ranges(partition).size()))
                .body("items[0].lowerBound", equalTo(0));

        // published at version 0 (the live prefix), then closed, switched and published as a manifest
        await(compaction.catalog::run);
        given().get(path + "/read-location").then().statusCode(200).body("kind", equalTo("LIVE_PREFIX"))
                .body("published", equalTo(true)).body("version", equalTo(0));
        given().get(path + "/manifest").then().statusCode(200).body("version", equalTo(0))
                .body("manifest", nullValue());
        given().post(path + "/close").then().statusCode(200);
        await(compaction.catalog::run);
        Partition switched = f.partition(partition);
        assertThat(switched.switched()).as("a quarantined last object does not hold back the switch").isTrue();
        long firstManifest = switched.currentManifestVersion();
        assertThat(firstManifest).isPositive();
        given().get(path + "/read-location").then().statusCode(200).body("kind", equalTo("MANIFEST"))
                .body("version", equalTo((int) firstManifest)).body("location", containsString("manifest-"));

        // fixed at its source key (a new file renamed over it), then released: the next merge includes it
        f.raw("bad", "{\"eventTime\":3,\"id\":\"fixed#1\"}\n");
        release(path, bad).statusCode(200).body("state", equalTo("RELEASED")).body("decidedAt", org.hamcrest.Matchers.notNullValue());
        release(path, bad).statusCode(200).body("state", equalTo("RELEASED"));
        problem(drop(path, bad), 409, 322);
        given().queryParam("state", "PENDING").get(path + "/objects").then().statusCode(200).body("total", equalTo(1))
                .body("items[0].objectKey", equalTo(bad));
        assertThat(drain(compaction.worker("w"))).doesNotContain(Outcome.FAILED);
        assertThat(f.mergedText(partition)).contains("fixed#1").doesNotContain("bad#1");
        given().queryParam("state", "MERGED").get(path + "/objects").then().statusCode(200).body("total", equalTo(4));

        // another bad object, dropped: never merged, and a later object still is
        String dropped = f.raw("drop", "not json\n{\"eventTime\":4,\"id\":\"dropped#1\"}\n");
        f.registerUntracked(dropped);
        assertThat(drain(compaction.worker("w"))).doesNotContain(Outcome.FAILED);
        drop(path, dropped).statusCode(200).body("state", equalTo("DROPPED")).body("lineNumber", equalTo(1));
        drop(path, dropped).statusCode(200).body("state", equalTo("DROPPED"));
        problem(release(path, dropped), 409, 322);
        String later = f.raw("later", "{\"eventTime\":5,\"id\":\"later#1\"}\n");
        f.registerUntracked(later);
        assertThat(drain(compaction.worker("w"))).doesNotContain(Outcome.FAILED);
        assertThat(f.mergedText(partition)).contains("later#1", "fixed#1").doesNotContain("dropped#1");
        given().queryParam("state", "DROPPED").get(path + "/objects").then().statusCode(200).body("total", equalTo(1))
                .body("items[0].objectKey", equalTo(dropped));
        given().queryParam("state", "dropped").get(path + "/quarantine").then().statusCode(200)
                .body("total", equalTo(1)).body("items[0].objectKey", equalTo(dropped));

        // a stored copy gone from a folder the store still serves: quarantined, no line
        String vanishing = f.raw("vanishing", "{\"eventTime\":6,\"id\":\"vanishing#1\"}\n");
        var registered = await(() -> compaction.registration.register(f.schema, f.table, f.date, vanishing));
        try {
            f.store.delete(registered.storageKey());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(drain(compaction.worker("w"))).doesNotContain(Outcome.FAILED);
        given().queryParam("state", "QUARANTINED").get(path + "/quarantine").then().statusCode(200)
                .body("total", equalTo(1)).body("items[0].objectKey", equalTo(vanishing))
                .body("items[0].lineNumber", nullValue()).body("items[0].error", containsString("not in the store"));

        await(compaction.catalog::run);
        long later2 = f.partition(partition).currentManifestVersion();
        assertThat(later2).as("released and later objects published in a newer manifest").isGreaterThan(firstManifest);
        given().get(path + "/read-location").then().statusCode(200).body("kind", equalTo("MANIFEST"))
                .body("version", equalTo((int) later2));
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void badInputIsAProblemWithACodeNeverAServerError(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 3600);
        long partition = f.arrive(1, 1, 0);
        String path = "/compaction/partitions/" + partition;
        String unknown = "/compaction/partitions/999999999";
        problem(given().get(unknown + "/objects").then(), 404, 314);
        problem(given().get(unknown + "/ranges").then(), 404, 314);
        problem(given().get(unknown + "/quarantine").then(), 404, 314);
        problem(given().get(unknown + "/read-location").then(), 404, 314);
        problem(release(unknown, "a/b.jsonl"), 404, 314);
        problem(release(path, "incoming/nothing/here.jsonl"), 404, 321);
        problem(drop(path, "incoming/nothing/here.jsonl"), 404, 321);
        problem(given().post(path + "/quarantine/release").then(), 400, 1);
        problem(given().queryParam("objectKey", "x".repeat(1025)).post(path + "/quarantine/drop").then(), 400, 1);
        problem(given().queryParam("state", "bogus").get(path + "/objects").then(), 400, 1);
        problem(given().queryParam("state", "bogus").get(path + "/quarantine").then(), 400, 1);
        problem(given().queryParam("limit", 0).get(path + "/ranges").then(), 400, 1);
        given().get(path + "/objects").then().statusCode(200).body("total", equalTo(1))
                .body("items[0].state", equalTo("PENDING"));
        given().get(path + "/quarantine").then().statusCode(200).body("total", equalTo(0));
    }

    private static ValidatableResponse release(String path, String key) {
        return given().queryParam("objectKey", key).post(path + "/quarantine/release").then();
    }

    private static ValidatableResponse drop(String path, String key) {
        return given().queryParam("objectKey", key).post(path + "/quarantine/drop").then();
    }

    private static void problem(ValidatableResponse r, int status, int code) {
        r.statusCode(status).contentType("application/problem+json").body("code", equalTo(code));
    }
}
