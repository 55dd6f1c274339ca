package io.batchyard.queue.compaction.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.queue.compaction.merge.MergePlanner.Candidate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MergePlannerTest {

    private static List<Candidate> objects(long firstId, long... lengths) {
        List<Candidate> list = new ArrayList<>();
        for (int i = 0; i < lengths.length; i++) {
            list.add(new Candidate(firstId + i, lengths[i]));
        }
        return list;
    }

    @Test
    void nothingUnmergedPlansNothing() {
        assertThat(new MergePlanner(100, 10).plan(Optional.empty(), List.of())).isEmpty();
    }

    @Test
    void theFirstRangeStartsAtZeroAndTakesEverythingThatFits() {
        MergePlan plan = new MergePlanner(100, 10).plan(Optional.empty(), objects(1, 10, 20, 30)).orElseThrow();
        assertThat(plan.lower()).isZero();
        assertThat(plan.upper()).isEqualTo(3);
        assertThat(plan.extendsOpenRange()).isFalse();
        assertThat(plan.continuing()).isFalse();
    }

    @Test
    void newObjectsExtendTheOpenRangeWhileItHasRoom() {
        MergePlan plan = new MergePlanner(100, 10).plan(Optional.of(new MergeRange(0, 3, 60, 0)), objects(4, 20, 30))
                .orElseThrow();
        assertThat(plan.extendsOpenRange()).isTrue();
        assertThat(plan.lower()).isZero();
        assertThat(plan.upper()).isEqualTo(4);
        assertThat(plan.continuing()).as("object 5 did not fit: carry-over").isTrue();
    }

    @Test
    void aFullOpenRangeIsLeftBehindAndANewRangeStartsAtItsUpperBound() {
        MergePlan plan = new MergePlanner(100, 10).plan(Optional.of(new MergeRange(0, 3, 95, 0)), objects(4, 20, 30))
                .orElseThrow();
        assertThat(plan.extendsOpenRange()).isFalse();
        assertThat(plan.lower()).isEqualTo(3);
        assertThat(plan.upper()).isEqualTo(5);
        assertThat(plan.continuing()).isFalse();
    }

    @Test
    void anOversizedObjectFormsItsOwnRangeInsteadOfWedgingThePartition() {
        MergePlanner planner = new MergePlanner(100, 10);
        MergePlan first = planner.plan(Optional.empty(), objects(1, 500, 10)).orElseThrow();
        assertThat(first.lower()).isZero();
        assertThat(first.upper()).isEqualTo(1);
        assertThat(first.objects()).extracting(Candidate::objectId).containsExactly(1L);
        assertThat(first.continuing()).isTrue();

        MergePlan next = planner.plan(Optional.of(new MergeRange(0, 1, 500, 0)), objects(2, 10)).orElseThrow();
        assertThat(next.extendsOpenRange()).as("nothing fits behind an oversized range").isFalse();
        assertThat(next.lower()).isEqualTo(1);
        assertThat(next.upper()).isEqualTo(2);
    }

    @Test
    void anOversizedObjectAfterAnOpenRangeAlsoStandsAlone() {
        MergePlan plan = new MergePlanner(100, 10).plan(Optional.of(new MergeRange(0, 3, 10, 0)), objects(4, 300, 5))
                .orElseThrow();
        assertThat(plan.extendsOpenRange()).isFalse();
        assertThat(plan.lower()).isEqualTo(3);
        assertThat(plan.upper()).isEqualTo(4);
        assertThat(plan.continuing()).isTrue();
    }

    @Test
    void moreThanABatchIsCarriedOverButExactlyABatchIsNot() {
        MergePlanner planner = new MergePlanner(1_000, 3);
        assertThat(planner.fetchSize()).isEqualTo(4);
        MergePlan full = planner.plan(Optional.empty(), objects(1, 1, 1, 1, 1)).orElseThrow();
        assertThat(full.upper()).isEqualTo(3);
        assertThat(full.continuing()).isTrue();
        MergePlan exact = planner.plan(Optional.empty(), objects(1, 1, 1, 1)).orElseThrow();
        assertThat(exact.upper()).isEqualTo(3);
        assertThat(exact.continuing()).as("the reference reports CONTINUING here; nothing is left").isFalse();
    }

    @Test
    void packingStopsAtTheFirstMisfitToKeepRangesContiguous() {
        MergePlan plan = new MergePlanner(100, 10).plan(Optional.empty(), objects(1, 50, 60, 10)).orElseThrow();
        assertThat(plan.objects()).extracting(Candidate::objectId).containsExactly(1L);
        assertThat(plan.continuing()).isTrue();
    }
}
