package io.batchyard.execution.deadline;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.execution.bucket.BucketGrain;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which buckets become expected, when their deadlines fall in a zone's local time, and the critical path's estimate. */
class DeadlineRulesTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final DeadlineSpec DAILY = new DeadlineSpec(BucketGrain.DAY, null, BERLIN, Duration.ofHours(1),
            Duration.ofHours(6), Duration.ofHours(2));

    @Test
    void aDayBucketsFinishByIsSixOClockLocalOnTheNextDay() {
        DeadlineSpec.Expected day = DAILY.endingBetween(Instant.parse("2026-03-10T11:00:00Z"),
                Instant.parse("2026-03-10T23:00:00Z"), 10).get(0);
        assertThat(day).isEqualTo(new DeadlineSpec.Expected("20260310", Instant.parse("2026-03-10T23:00:00Z")));
        assertThat(DAILY.due(day.end(), DAILY.finishBy())).isEqualTo(Instant.parse("2026-03-11T05:00:00Z"));
    }

    @Test
    void theTwentyThreeHourDayEndsAnHourEarlierAndItsDeadlineIsStillSixLocal() {
        // 29 March 2026: Berlin skips 02:00-03:00; the day is 23 hours and the next morning is in summer time
        List<DeadlineSpec.Expected> days = DAILY.endingBetween(Instant.parse("2026-03-28T23:00:00Z"),
                Instant.parse("2026-03-29T22:00:00Z"), 10);
        assertThat(days).containsExactly(new DeadlineSpec.Expected("20260329", Instant.parse("2026-03-29T22:00:00Z")));
        assertThat(Duration.between(Instant.parse("2026-03-28T23:00:00Z"), days.get(0).end())).hasHours(23);
        assertThat(DAILY.due(days.get(0).end(), DAILY.finishBy())).isEqualTo(Instant.parse("2026-03-30T04:00:00Z"));
        // an offset across the gap counts on the local clock: start-by PT3H of the 28th lands at 03:00 CEST
        assertThat(DAILY.due(Instant.parse("2026-03-28T23:00:00Z"), Duration.ofHours(3)))
                .isEqualTo(Instant.parse("2026-03-29T01:00:00Z"));
    }

    @Test
    void theTwentyFiveHourDayEndsAnHourLaterAndItsDeadlineIsStillSixLocal() {
        // 25 October 2026: Berlin repeats 02:00-03:00; the day is 25 hours and the next morning is in winter time
        List<DeadlineSpec.Expected> days = DAILY.endingBetween(Instant.parse("2026-10-24T22:00:00Z"),
                Instant.parse("2026-10-25T23:00:00Z"), 10);
        assertThat(days).containsExactly(new DeadlineSpec.Expected("20261025", Instant.parse("2026-10-25T23:00:00Z")));
        assertThat(Duration.between(Instant.parse("2026-10-24T22:00:00Z"), days.get(0).end())).hasHours(25);
        assertThat(DAILY.due(days.get(0).end(), DAILY.finishBy())).isEqualTo(Instant.parse("2026-10-26T05:00:00Z"));
        // a local time the night repeats is its first instant
        assertThat(DAILY.due(Instant.parse("2026-10-24T22:00:00Z"), Duration.ofMinutes(150)))
                .isEqualTo(Instant.parse("2026-10-25T00:30:00Z"));
    }

    @Test
    void theBucketInProgressIsExpectedAndADowntimeCatchesUpEveryBucketItMissed() {
        Instant now = Instant.parse("2026-03-10T11:00:00Z");
        assertThat(DAILY.nextEnd(now)).isEqualTo(Instant.parse("2026-03-10T23:00:00Z"));
        List<DeadlineSpec.Expected> week = DAILY.endingBetween(now, Instant.parse("2026-03-17T23:00:00Z"), 500);
        assertThat(week).extracting(DeadlineSpec.Expected::bucket).containsExactly("20260310", "20260311",
                "20260312", "20260313", "20260314", "20260315", "20260316", "20260317");
        assertThat(DAILY.endingBetween(now, Instant.parse("2026-03-17T23:00:00Z"), 3)).hasSize(3);
        DeadlineSpec hourly = new DeadlineSpec(BucketGrain.HOUR, null, BERLIN, null, Duration.ofMinutes(30), null);
        // the autumn night's repeated hour is one bucket of two hours: 24 hourly buckets on a 25-hour day
        assertThat(hourly.endingBetween(Instant.parse("2026-10-24T22:00:00Z"), Instant.parse("2026-10-25T23:00:00Z"),
                100)).hasSize(24);
    }

    @Test
    void aCronFireEndsTheBucketOfTheGrainJustBeforeIt() {
        DeadlineSpec nightly = new DeadlineSpec(BucketGrain.DAY, "0 2 * * *", BERLIN, null, Duration.ofHours(4), null);
        List<DeadlineSpec.Expected> fires = nightly.endingBetween(Instant.parse("2026-03-10T11:00:00Z"),
                Instant.parse("2026-03-12T11:00:00Z"), 10);
        assertThat(fires).containsExactly(
                new DeadlineSpec.Expected("20260310", Instant.parse("2026-03-11T01:00:00Z")),
                new DeadlineSpec.Expected("20260311", Instant.parse("2026-03-12T01:00:00Z")));
        assertThat(nightly.due(fires.get(0).end(), nightly.finishBy())).isEqualTo(Instant.parse("2026-03-11T05:00:00Z"));
    }

    @Test
    void theEstimateAddsTheLongestUnfinishedUpstreamOfEachDistanceAndNamesTheMostUpstreamOne() {
        Instant now = Instant.parse("2026-03-11T02:30:00Z");
        List<CriticalPath.Link> chain = List.of(
                new CriticalPath.Link(1, 0, false, Duration.ofHours(1), null),
                new CriticalPath.Link(2, 1, false, Duration.ofHours(3), null),
                new CriticalPath.Link(3, 1, false, Duration.ofHours(2), Duration.ofMinutes(90)),
                new CriticalPath.Link(4, 2, true, Duration.ofHours(5), null));
        assertThat(CriticalPath.estimate(chain, now))
                .contains(new CriticalPath.Estimate(now.plus(Duration.ofHours(4)), 2));
        // a running process counts what is left of its typical time
        assertThat(CriticalPath.estimate(List.of(chain.get(2)), now))
                .contains(new CriticalPath.Estimate(now.plus(Duration.ofMinutes(30)), 3));
        // no history, no estimate; nothing left, nothing to wait for
        assertThat(CriticalPath.estimate(List.of(new CriticalPath.Link(5, 0, false, null, null)), now)).isEmpty();
        assertThat(CriticalPath.estimate(List.of(chain.get(3)), now)).isEqualTo(Optional.empty());
    }
}
