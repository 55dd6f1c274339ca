package io.batchyard.execution.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.execution.bucket.BucketGrain;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The bucket-aware trigger rules without a database: grain mapping across DST, every policy, and timeouts. */
class TriggerRulesTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final TriggerRules.Producer HOURLY_UTC = new TriggerRules.Producer(Optional.of(BucketGrain.HOUR),
            ZoneOffset.UTC);
    private static final TriggerRules.Producer UNDECLARED_UTC = new TriggerRules.Producer(Optional.empty(),
            ZoneOffset.UTC);
    private static final Instant NOW = Instant.parse("2026-03-30T08:00:00Z");

    @Test
    void anHourlyUtcProducerFeedsABerlinDay24Hours23WhenTheClocksGoForwardAnd25WhenTheyGoBack() {
        assertThat(expected("20260328")).hasSize(24).startsWith("2026032723").endsWith("2026032822");
        assertThat(expected("20260329")).hasSize(23).startsWith("2026032823").endsWith("2026032921");
        assertThat(expected("20261025")).hasSize(25).startsWith("2026102422").endsWith("2026102522");
        // an undeclared producer's grain is read off the keys that arrived
        assertThat(TriggerRules.expected("20260329", BucketGrain.DAY, BERLIN, UNDECLARED_UTC, List.of("2026032900")))
                .hasSize(23);
        // before anything arrived an undeclared producer is taken to work in the consumer's grain (in its own zone)
        assertThat(TriggerRules.expected("20260329", BucketGrain.DAY, BERLIN, UNDECLARED_UTC, List.of()))
                .containsExactly("20260329");
        // the upstream grain expects one batch, whatever its key
        assertThat(TriggerRules.expected("20260329", null, BERLIN, HOURLY_UTC, List.of())).isEmpty();
    }

    @Test
    void anInputBelongsToTheConsumerBucketThatHoldsTheStartOfItsOwnSpan() {
        // 22:00 UTC on the 28th is 23:00 in Berlin: still the 28th; 23:00 UTC is midnight of the 29th
        assertThat(bucket("2026032822")).isEqualTo("20260328");
        assertThat(bucket("2026032823")).isEqualTo("20260329");
        assertThat(bucket("2026032921")).isEqualTo("20260329");
        assertThat(bucket("2026032922")).isEqualTo("20260330");
        // every hour of the three days lands in exactly the bucket that expects it
        for (String day : List.of("20260328", "20260329", "20261025")) {
            expected(day).forEach(hour -> assertThat(bucket(hour)).as(hour).isEqualTo(day));
        }
        // a marking without a readable bucket: the consumer bucket of the arrival time
        assertThat(TriggerRules.consumerBucket("EOD", 7, UNDECLARED_UTC, BucketGrain.DAY, BERLIN,
                Instant.parse("2026-03-29T22:30:00Z"))).isEqualTo("20260330");
        // the upstream grain keeps the input's own key, or batch-<source batch> without a marking
        assertThat(TriggerRules.consumerBucket("2026032823", 7, HOURLY_UTC, null, BERLIN, NOW)).isEqualTo("2026032823");
        assertThat(TriggerRules.consumerBucket(null, 7, HOURLY_UTC, null, BERLIN, NOW)).isEqualTo("batch-7");
        assertThat(TriggerRules.consumerBucket("a,b", 7, HOURLY_UTC, null, BERLIN, NOW)).isEqualTo("batch-7");
        // a daily Berlin producer read by a weekly and a monthly consumer
        TriggerRules.Producer dailyBerlin = new TriggerRules.Producer(Optional.of(BucketGrain.DAY), BERLIN);
        assertThat(TriggerRules.consumerBucket("20260329", 1, dailyBerlin, BucketGrain.WEEK, BERLIN, NOW))
                .isEqualTo("20260323");
        assertThat(TriggerRules.consumerBucket("20260329", 1, dailyBerlin, BucketGrain.MONTH, BERLIN, NOW))
                .isEqualTo("20260301");
    }

    @Test
    void eachIsDueWithAnyBatchAllWithEveryInputCompleteAnyOfWithOneNOfWithN() {
        List<Long> k = List.of(1L, 2L, 3L);
        Map<Long, TriggerRules.Progress> oneDone = Map.of(1L, done(), 2L, half(), 3L, nothing());
        Map<Long, TriggerRules.Progress> twoDone = Map.of(1L, done(), 2L, done(), 3L, half());
        Map<Long, TriggerRules.Progress> allDone = Map.of(1L, done(), 2L, done(), 3L, done());

        assertThat(due(TriggerPolicy.EACH, null, k, Map.of(2L, half()))).isTrue();
        assertThat(due(TriggerPolicy.EACH, null, k, Map.of())).isFalse();

        assertThat(due(TriggerPolicy.ALL, null, k, twoDone)).isFalse();
        assertThat(due(TriggerPolicy.ALL, null, k, allDone)).isTrue();
        TriggerRules.Verdict waiting = TriggerRules.evaluate(TriggerPolicy.ALL, null, k, oneDone, null, NOW);
        assertThat(waiting.missing()).containsOnlyKeys(2L, 3L);
        assertThat(waiting.missing().get(2L)).containsExactly("2026032901");
        assertThat(waiting.missing().get(3L)).containsExactly("2026032900", "2026032901");

        assertThat(due(TriggerPolicy.ANY_OF, null, k, Map.of(2L, half(), 3L, nothing()))).isFalse();
        assertThat(due(TriggerPolicy.ANY_OF, null, k, oneDone)).isTrue();

        assertThat(due(TriggerPolicy.N_OF, 2, k, oneDone)).isFalse();
        assertThat(due(TriggerPolicy.N_OF, 2, k, twoDone)).isTrue();
        assertThat(due(TriggerPolicy.NONE, null, k, allDone)).isFalse();
        // with the upstream grain one batch completes an input process
        TriggerRules.Progress oneBatch = new TriggerRules.Progress(List.of(), Set.of("batch-9"), 1);
        assertThat(due(TriggerPolicy.ALL, null, List.of(1L, 2L), Map.of(1L, oneBatch, 2L, oneBatch))).isTrue();
    }

    @Test
    void allWithTimeoutWaitsForEveryInputOrRunsWithWhatArrivedOnceTheTimeoutPassedAndSaysWhatIsMissing() {
        List<Long> k = List.of(1L, 2L);
        Instant first = Instant.parse("2026-03-30T06:00:00Z");
        Instant timeoutAt = TriggerRules.timeoutAt(first, Duration.ofHours(2));
        assertThat(timeoutAt).isEqualTo(Instant.parse("2026-03-30T08:00:00Z"));
        Map<Long, TriggerRules.Progress> partial = Map.of(1L, done(), 2L, half());

        TriggerRules.Verdict before = TriggerRules.evaluate(TriggerPolicy.ALL_WITH_TIMEOUT, null, k, partial, timeoutAt,
                timeoutAt.minusSeconds(1));
        assertThat(before.due()).isFalse();
        TriggerRules.Verdict at = TriggerRules.evaluate(TriggerPolicy.ALL_WITH_TIMEOUT, null, k, partial, timeoutAt,
                timeoutAt);
        assertThat(at.due()).isTrue();
        assertThat(at.reason()).contains("timeout passed", "1 of 2");
        assertThat(at.missing()).containsExactly(Map.entry(2L, List.of("2026032901")));
        assertThat(TriggerRules.evaluate(TriggerPolicy.ALL_WITH_TIMEOUT, null, k, Map.of(1L, done(), 2L, done()),
                timeoutAt, first).due()).isTrue();
    }

    private static List<String> expected(String day) {
        return TriggerRules.expected(day, BucketGrain.DAY, BERLIN, HOURLY_UTC, List.of());
    }

    private static String bucket(String hour) {
        return TriggerRules.consumerBucket(hour, 1, HOURLY_UTC, BucketGrain.DAY, BERLIN, NOW);
    }

    private static boolean due(TriggerPolicy policy, Integer n, List<Long> k, Map<Long, TriggerRules.Progress> p) {
        return TriggerRules.evaluate(policy, n, k, p, null, NOW).due();
    }

    private static TriggerRules.Progress done() {
        return progress("2026032900", "2026032901");
    }

    private static TriggerRules.Progress half() {
        return progress("2026032900");
    }

    private static TriggerRules.Progress nothing() {
        return progress();
    }

    private static TriggerRules.Progress progress(String... arrived) {
        return new TriggerRules.Progress(List.of("2026032900", "2026032901"), new HashSet<>(List.of(arrived)),
                arrived.length);
    }
}
