package io.batchyard.queue.compaction;

import static io.batchyard.persistence.Blocking.await;
import static io.batchyard.queue.compaction.CompactionFixture.drain;
import static io.batchyard.queue.compaction.CompactionRest.clockAt;
import static io.batchyard.queue.compaction.CompactionRest.problem;
import static io.batchyard.queue.compaction.CompactionRest.put;
import static io.batchyard.queue.compaction.CompactionRest.realTime;
import static io.batchyard.queue.compaction.CompactionRest.registerOverRest;
import static io.batchyard.queue.compaction.CompactionRest.settings;
import static io.batchyard.queue.compaction.CompactionRest.tableId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.batchyard.queue.QueueTest;
import jakarta.inject.Inject;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Per-table settings at run time and the movable clock: windows, size cap, merge delay and end-of-day closing in the
 * table's zone follow the table's current settings and the service clock. The clock is set to instants in the past,
 * so other tests' pending jobs (scheduled on real time) are never due while it is moved.
 */
@QueueTest
class TableSettingsTest {

    @Inject
    Compaction compaction;

    @AfterEach
    void backToRealTime() {
        realTime();
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void settingsAreValidatedStoredAndFallBackToTheGlobalDefaults(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 60);
        long id = tableId(f);
        given().get("/compaction/tables/" + id + "/settings").then().statusCode(200)
                .body("table.mergedObjectSize", nullValue()).body("table.mergeIntervalSeconds", equalTo(60))
                .body("effective.mergedObjectSize", equalTo(134_217_728)).body("effective.timeZone", equalTo("UTC"))
                .body("effective.acceptancePastDays", nullValue());
        String path = "/compaction/tables/" + id + "/settings";
        problem(put(path, settings("mergeIntervalSeconds", 0, "timeZone", "+05:00")), 400, 327);
        problem(put(path, settings("mergeIntervalSeconds", 0, "timeZone", "Mars/Olympus")), 400, 327);
        problem(put(path, settings("mergeIntervalSeconds", 0, "acceptancePastDays", -1)), 400, 1);
        problem(put(path, settings("timeZone", "UTC")), 400, 1); // the merge interval is required
        problem(put("/compaction/tables/987654321/settings", settings("mergeIntervalSeconds", 0)), 404, 311);
        problem(given().get("/compaction/tables/987654321/settings").then(), 404, 311);

        put(path, settings("mergedObjectSize", 5000, "mergeIntervalSeconds", 30, "acceptancePastDays", 3,
                "timeZone", "Europe/Paris")).statusCode(200)
                .body("table.mergedObjectSize", equalTo(5000)).body("effective.mergeIntervalSeconds", equalTo(30))
                .body("effective.acceptancePastDays", equalTo(3)).body("effective.acceptanceFutureDays", nullValue())
                .body("effective.timeZone", equalTo("Europe/Paris"));
        given().get(path).then().statusCode(200).body("table.timeZone", equalTo("Europe/Paris"))
                .body("effective.mergedObjectSize", equalTo(5000));
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void theSizeCapIsTheTablesAtEachMergeRun(TestStore store) {
        CompactionFixture f = new CompactionFixture(compaction, store, 0);
        long id = tableId(f);
        drain(compaction.worker("before"));
        // three objects of ~1.2 kB: under the global cap they make one range, under a 2000-byte cap one range each
        put("/compaction/tables/" + id + "/settings", settings("mergedObjectSize", 2000, "mergeIntervalSeconds", 0))
                .statusCode(200);
        long partition = f.arrive(3, 10, 80);
        drain(compaction.worker("capped"));
        assertThat(f.ranges(partition)).hasSize(3);
        f.assertMergedExactlyOnce(partition);

        put("/compaction/tables/" + id + "/settings", settings("mergeIntervalSeconds", 0)).statusCode(200);
        f.arrive(3, 10, 80);
        drain(compaction.worker("default"));
        assertThat(f.ranges(partition)).as("back on the global cap: the new objects join the open range").hasSize(3);
        f.assertMergedExactlyOnce(partition);
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void theAcceptanceWindowIsCountedFromTodayInTheTablesZone(TestStore store) {
        // 2026-03-10T20:00Z is already 2026-03-11 in Tokyo
        clockAt("2026-03-10T20:00:00Z");
        CompactionFixture f = new CompactionFixture(compaction, store, 0, LocalDate.of(2026, 3, 11));
        long id = tableId(f);
        put("/compaction/tables/" + id + "/settings", settings("mergeIntervalSeconds", 0, "acceptancePastDays", 2,
                "acceptanceFutureDays", 1, "timeZone", "Asia/Tokyo")).statusCode(200);
        problem(registerOverRest(f, LocalDate.of(2026, 3, 8), f.write(2, 0)), 422, 325);
        problem(registerOverRest(f, LocalDate.of(2026, 3, 13), f.write(2, 0)), 422, 325);
        registerOverRest(f, LocalDate.of(2026, 3, 9), f.write(2, 0)).statusCode(201);
        registerOverRest(f, LocalDate.of(2026, 3, 12), f.write(2, 0)).statusCode(201);
        given().get("/compaction/partitions?tableId=" + id).then().statusCode(200).body("total", equalTo(2));
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void mergeDelaysFollowTheMovedClock(TestStore store) {
        clockAt("2026-02-01T00:00:00Z");
        CompactionFixture f = new CompactionFixture(compaction, store, 3600, LocalDate.of(2026, 2, 1));
        long partition = f.arrive(2, 5, 0);
        drain(compaction.worker("early"));
        assertThat(f.ranges(partition)).as("not due before the merge interval has passed on the clock").isEmpty();

        clockAt("2026-02-01T00:59:59Z");
        drain(compaction.worker("still-early"));
        assertThat(f.ranges(partition)).isEmpty();

        put("/admin/clock", Map.of("offsetSeconds", 0)).statusCode(200).body("moved", equalTo(false));
        clockAt("2026-02-01T01:00:00Z");
        drain(compaction.worker("due"));
        assertThat(f.ranges(partition)).hasSize(1);
        f.assertMergedExactlyOnce(partition);
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aPartitionClosesAtTheEndOfItsDayInItsTablesZoneAndNotBefore(TestStore store) {
        LocalDate day = LocalDate.of(2026, 1, 15);
        clockAt("2026-01-15T12:00:00Z");
        CompactionFixture tokyo = new CompactionFixture(compaction, store, 0, day);
        CompactionFixture newYork = new CompactionFixture(compaction, store, 0, day);
        put("/compaction/tables/" + tableId(tokyo) + "/settings", settings("mergeIntervalSeconds", 0,
                "timeZone", "Asia/Tokyo")).statusCode(200);
        put("/compaction/tables/" + tableId(newYork) + "/settings", settings("mergeIntervalSeconds", 0,
                "timeZone", "America/New_York")).statusCode(200);
        long t = tokyo.arrive(1, 3, 0);
        long n = newYork.arrive(1, 3, 0);

        await(compaction.catalog::run); // 21:00 in Tokyo, 07:00 in New York: the day is not over anywhere
        assertThat(tokyo.partition(t).lastLiveObjectId()).isNull();
        assertThat(newYork.partition(n).lastLiveObjectId()).isNull();

        clockAt("2026-01-15T15:00:00Z"); // midnight in Tokyo, 10:00 in New York
        await(compaction.catalog::run);
        assertThat(tokyo.partition(t).lastLiveObjectId()).isNotNull();
        assertThat(newYork.partition(n).lastLiveObjectId()).isNull();

        clockAt("2026-01-16T04:59:59Z"); // 23:59:59 in New York
        await(compaction.catalog::run);
        assertThat(newYork.partition(n).lastLiveObjectId()).isNull();

        clockAt("2026-01-16T05:00:00Z"); // midnight in New York (UTC-5 in January)
        await(compaction.catalog::run);
        assertThat(newYork.partition(n).lastLiveObjectId()).isNotNull();
    }

    @Test
    void theClockIsSetByOffsetOrInstantAndRefusesAnythingElse() {
        problem(put("/admin/clock", Map.of()), 400, 324);
        problem(put("/admin/clock", Map.of("offsetSeconds", 5, "instant", "2026-01-01T00:00:00Z")), 400, 324);
        problem(put("/admin/clock", Map.of("instant", "yesterday")), 400, 324);
        put("/admin/clock", Map.of("offsetSeconds", 86_400)).statusCode(200).body("moved", equalTo(true))
                .body("offsetSeconds", equalTo(86_400)).body("fixedAt", nullValue());
        given().get("/admin/clock").then().statusCode(200).body("offsetSeconds", equalTo(86_400));
    }
}
