package io.batchyard.execution.bucket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bucket patterns, keys, formats and selection, without a database. */
class BucketRulesTest {

    private static final LocalDateTime NOW = LocalDateTime.of(2024, 3, 1, 7, 30); // a Friday

    @Test
    void patternsNameTheCurrentPeriodAndRanges() {
        assertThat(BucketPattern.of("YYYYMMDD")).contains(BucketPattern.DAILY);
        assertThat(BucketPattern.of("PreviousDay")).isEmpty();
        assertThat(BucketPattern.DAILY.current(NOW)).isEqualTo("20240301");
        assertThat(BucketPattern.HOURLY.current(NOW)).isEqualTo("2024030107");
        assertThat(BucketPattern.DAILY.range("20240227", "20240302"))
                .containsExactly("20240227", "20240228", "20240229", "20240301", "20240302");
        assertThat(BucketPattern.HOURLY.range("2024030122", "2024030201")).containsExactly("2024030122", "2024030123",
                "2024030200", "2024030201");
        assertThat(BucketPattern.DAILY.matches("20240230")).isFalse();
        assertThat(BucketPattern.DAILY.matches("2024030")).isFalse();
        assertThatThrownBy(() -> BucketPattern.DAILY.range("20240302", "20240301")).hasMessageContaining("before it starts");
        assertThatThrownBy(() -> BucketPattern.HOURLY.range("2000010100", "2024010100")).hasMessageContaining("exceeds");
    }

    @Test
    void builtInKeysResolveFromTheClock() {
        assertThat(BuiltinBucketKey.of("previousday").orElseThrow().resolve(NOW)).isEqualTo("20240229");
        assertThat(BuiltinBucketKey.of("FirstDayofMonth").orElseThrow().resolve(NOW)).isEqualTo("20240301");
        assertThat(BuiltinBucketKey.of("FirstDayOfWeek").orElseThrow().resolve(NOW)).isEqualTo("20240226");
        assertThat(BuiltinBucketKey.of("PreviousHour").orElseThrow().resolve(NOW)).isEqualTo("2024030106");
        assertThat(BuiltinBucketKey.of("PreviousWeek").orElseThrow().resolve(NOW)).isEqualTo("20240219 20240225");
        assertThat(BuiltinBucketKey.of("Tomorrow")).isEmpty();
    }

    @Test
    void paramFormatsPlaceTokensAndRejectMissingOnes() {
        assertThat(ParamFormat.arguments("20141201 20141207", null)).containsExactly("20141201", "20141207");
        assertThat(ParamFormat.arguments("a b c", "-c $1 -t $2 -f $3")).containsExactly("-c", "a", "-t", "b", "-f", "c");
        assertThat(ParamFormat.arguments("20141201 20141207", "--range=$1..$2")).containsExactly("--range=20141201..20141207");
        assertThatThrownBy(() -> ParamFormat.arguments("only", "-s $1 -e $2")).hasMessageContaining("uses $2");
    }

    @Test
    void selectionIsOldestFirstUnlessBatchAndExactMatchWins() {
        List<String> eligible = List.of("20240301", "20240229", "20240228");
        assertThat(BucketSelection.select(eligible, false, false, null, "20240301")).containsExactly("20240228");
        assertThat(BucketSelection.select(eligible, false, true, null, null))
                .containsExactly("20240228", "20240229", "20240301");
        assertThat(BucketSelection.select(eligible, false, true, 2, null)).containsExactly("20240228", "20240229");
        assertThat(BucketSelection.select(eligible, true, true, null, "20240301")).containsExactly("20240301");
        assertThat(BucketSelection.select(List.of("20240228"), true, false, null, "20240301")).isEmpty();
        assertThat(BucketSelection.select(List.of(), false, false, null, null)).isEmpty();
    }

    @Test
    void bucketStatesFollowTheTransitionTable() {
        assertThat(BucketStatus.State.INIT.canBecome(BucketStatus.State.RUNNING)).isTrue();
        assertThat(BucketStatus.State.INIT.canBecome(BucketStatus.State.COMPLETE)).isFalse();
        assertThat(BucketStatus.State.RUNNING.canBecome(BucketStatus.State.FAILED)).isTrue();
        assertThat(BucketStatus.State.FAILED.canBecome(BucketStatus.State.INIT)).isTrue();
        assertThat(BucketStatus.State.COMPLETE.canBecome(BucketStatus.State.INIT)).isFalse();
    }
}
