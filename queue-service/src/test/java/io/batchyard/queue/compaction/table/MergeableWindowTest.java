package io.batchyard.queue.compaction.table;

import static io.batchyard.queue.compaction.table.TableSettings.Window.AHEAD;
import static io.batchyard.queue.compaction.table.TableSettings.Window.BEHIND;
import static io.batchyard.queue.compaction.table.TableSettings.Window.INSIDE;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/**
 * The mergeable window: from the local date of now - mergeableDelayDays days - 1 hour to the local date of now + 1
 * day + 1 hour, inclusive, in the table's zone; unbounded without a mergeable delay.
 */
class MergeableWindowTest {

    private static final TableSettings.Defaults NONE = new TableSettings.Defaults(1, null, null, null);

    private static TableSettings.Effective table(Integer mergeableDelayDays, String zone) {
        return new TableSettings(null, 0, null, null, mergeableDelayDays, zone).effective(NONE, 0);
    }

    private static LocalDate day(String date) {
        return LocalDate.parse(date);
    }

    @Test
    void atMiddayTheWindowIsTodayMinusTheDelayToTomorrowBothIncluded() {
        TableSettings.Effective t = table(15, "UTC");
        Instant noon = Instant.parse("2026-06-15T12:00:00Z");
        assertThat(t.window(day("2026-05-30"), noon)).as("16 days back").isEqualTo(BEHIND);
        assertThat(t.window(day("2026-05-31"), noon)).as("15 days back: the edge").isEqualTo(INSIDE);
        assertThat(t.window(day("2026-06-15"), noon)).isEqualTo(INSIDE);
        assertThat(t.window(day("2026-06-16"), noon)).as("tomorrow: the edge").isEqualTo(INSIDE);
        assertThat(t.window(day("2026-06-17"), noon)).as("2 days ahead").isEqualTo(AHEAD);
    }

    @Test
    void theHourOfLagMovesEachEdgeByADayInTheFirstAndLastHourOfTheDay() {
        TableSettings.Effective t = table(15, "UTC");
        assertThat(t.window(day("2026-05-30"), Instant.parse("2026-06-15T00:59:59Z"))).isEqualTo(INSIDE);
        assertThat(t.window(day("2026-05-30"), Instant.parse("2026-06-15T01:00:00Z"))).isEqualTo(BEHIND);
        assertThat(t.window(day("2026-06-17"), Instant.parse("2026-06-15T22:59:59Z"))).isEqualTo(AHEAD);
        assertThat(t.window(day("2026-06-17"), Instant.parse("2026-06-15T23:00:00Z"))).isEqualTo(INSIDE);
    }

    @Test
    void theEdgesAreLocalDatesOfTheTablesZone() {
        TableSettings.Effective tokyo = table(0, "Asia/Tokyo");
        // 15:30 UTC is 00:30 of the next day in Tokyo: within the hour of lag yesterday is still inside
        Instant justAfterMidnight = Instant.parse("2026-06-15T15:30:00Z");
        assertThat(tokyo.window(day("2026-06-15"), justAfterMidnight)).isEqualTo(INSIDE);
        assertThat(tokyo.window(day("2026-06-14"), justAfterMidnight)).isEqualTo(BEHIND);
        assertThat(tokyo.window(day("2026-06-17"), justAfterMidnight)).isEqualTo(INSIDE);
        assertThat(tokyo.window(day("2026-06-18"), justAfterMidnight)).isEqualTo(AHEAD);
        assertThat(tokyo.window(day("2026-06-15"), Instant.parse("2026-06-15T16:00:00Z"))).isEqualTo(BEHIND);
    }

    @Test
    void withoutAMergeableDelayEveryDateIsInside() {
        TableSettings.Effective t = table(null, "UTC");
        Instant now = Instant.parse("2026-06-15T12:00:00Z");
        assertThat(t.window(day("1970-01-01"), now)).isEqualTo(INSIDE);
        assertThat(t.window(day("2126-01-01"), now)).isEqualTo(INSIDE);
    }
}
