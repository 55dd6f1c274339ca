package io.batchyard.execution.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class CronScheduleTest {

    @Test
    void firesEveryDueTimeInTheWindowInItsZone() {
        CronSchedule hourly = CronSchedule.parse("0 * * * *", "UTC");
        assertThat(hourly.firesBetween(Instant.parse("2024-03-01T07:00:00Z"), Instant.parse("2024-03-01T10:00:00Z")))
                .extracting(t -> t.toInstant().toString())
                .containsExactly("2024-03-01T08:00:00Z", "2024-03-01T09:00:00Z", "2024-03-01T10:00:00Z");
        CronSchedule daily = CronSchedule.parse("30 2 * * *", "Europe/Berlin");
        assertThat(daily.firesBetween(Instant.parse("2024-03-01T00:00:00Z"), Instant.parse("2024-03-02T00:00:00Z")))
                .extracting(t -> t.toInstant().toString()).containsExactly("2024-03-01T01:30:00Z");
    }

    @Test
    void theNextFireIsTheFirstOneStrictlyAfter() {
        CronSchedule everyMinute = CronSchedule.parse("* * * * *", "UTC");
        assertThat(everyMinute.nextFire(Instant.parse("2024-03-01T07:00:00Z")).orElseThrow().toInstant())
                .isEqualTo(Instant.parse("2024-03-01T07:01:00Z"));
        CronSchedule daily = CronSchedule.parse("30 2 * * *", "Europe/Berlin");
        Instant after = Instant.parse("2024-03-01T00:00:00Z");
        assertThat(daily.nextFire(after).orElseThrow())
                .isEqualTo(daily.firesBetween(after, Instant.parse("2024-03-05T00:00:00Z")).get(0));
    }

    @Test
    void badExpressionsAndZonesAreExplained() {
        assertThatThrownBy(() -> CronSchedule.parse("61 * * * *", "UTC")).hasMessageContaining("five-field");
        assertThatThrownBy(() -> CronSchedule.parse("* * *", "UTC")).hasMessageContaining("five-field");
        assertThatThrownBy(() -> CronSchedule.parse("0 * * * *", "Mars/Olympus")).hasMessageContaining("time zone");
    }
}
