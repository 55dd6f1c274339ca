package io.batchyard.execution.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class BucketGrainTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @Test
    void aBerlinDayHoldsTwentyFourUtcHoursOrTwentyThreeOrTwentyFiveWhenTheClocksChange() {
        assertEquals(24, utcHoursOf("20260328").size());
        List<String> spring = utcHoursOf("20260329");
        assertEquals(23, spring.size());
        assertEquals("2026032823", spring.get(0), "Berlin's day starts at 23:00 UTC the evening before");
        assertEquals("2026032921", spring.get(22));
        List<String> autumn = utcHoursOf("20261025");
        assertEquals(25, autumn.size());
        assertEquals("2026102422", autumn.get(0));
        assertEquals("2026102522", autumn.get(24));
    }

    @Test
    void localHoursOfADayInItsOwnZoneSkipTheMissingHourAndKeepTheRepeatedOneAsOneBucket() {
        BucketGrain.Span spring = BucketGrain.DAY.span("20260329", BERLIN).orElseThrow();
        List<String> hours = BucketGrain.HOUR.keysStartingIn(spring, BERLIN);
        assertEquals(23, hours.size());
        assertTrue(!hours.contains("2026032902"), "02:00 does not exist in Berlin on that day");
        assertTrue(BucketGrain.HOUR.span("2026032902", BERLIN).isEmpty());

        BucketGrain.Span autumn = BucketGrain.DAY.span("20261025", BERLIN).orElseThrow();
        assertEquals(Duration.ofHours(25), Duration.between(autumn.start(), autumn.end()));
        assertEquals(24, BucketGrain.HOUR.keysStartingIn(autumn, BERLIN).size());
        BucketGrain.Span repeated = BucketGrain.HOUR.span("2026102502", BERLIN).orElseThrow();
        assertEquals(Duration.ofHours(2), Duration.between(repeated.start(), repeated.end()));
    }

    @Test
    void keysOfWeeksAndMonthsAreTheirFirstDay() {
        Instant sundayNightUtc = Instant.parse("2026-11-29T23:30:00Z");
        assertEquals("20261130", BucketGrain.DAY.key(sundayNightUtc, BERLIN), "already Monday in Berlin");
        assertEquals("20261130", BucketGrain.WEEK.key(sundayNightUtc, BERLIN));
        assertEquals("20261123", BucketGrain.WEEK.key(sundayNightUtc, ZoneOffset.UTC));
        assertEquals("20261101", BucketGrain.MONTH.key(sundayNightUtc, ZoneOffset.UTC));
        assertTrue(BucketGrain.WEEK.span("20261129", BERLIN).isEmpty(), "a Sunday is no week's key");
        assertTrue(BucketGrain.MONTH.span("20261102", BERLIN).isEmpty());
        assertEquals(30, BucketGrain.DAY.keysStartingIn(BucketGrain.MONTH.span("20261101", BERLIN).orElseThrow(),
                BERLIN).size());
        assertEquals(7, BucketGrain.DAY.keysStartingIn(BucketGrain.WEEK.span("20261026", BERLIN).orElseThrow(),
                BERLIN).size());
    }

    @Test
    void keysAreReadByTheirShape() {
        assertEquals(BucketGrain.HOUR, BucketGrain.inferred("2026112907").orElseThrow());
        assertEquals(BucketGrain.DAY, BucketGrain.inferred("20261129").orElseThrow());
        assertTrue(BucketGrain.inferred("2026-11-29").isEmpty());
        assertTrue(BucketGrain.inferred(null).isEmpty());
        assertTrue(BucketGrain.DAY.span("2026113", BERLIN).isEmpty());
        assertTrue(BucketGrain.DAY.span("20261332", BERLIN).isEmpty());
        assertTrue(BucketGrain.DAY.span("20260230", BERLIN).isEmpty());
        assertEquals(BucketGrain.WEEK, BucketGrain.of(" Week").orElseThrow());
    }

    private static List<String> utcHoursOf(String berlinDay) {
        BucketGrain.Span day = BucketGrain.DAY.span(berlinDay, BERLIN).orElseThrow();
        return BucketGrain.HOUR.keysStartingIn(day, ZoneOffset.UTC);
    }
}
