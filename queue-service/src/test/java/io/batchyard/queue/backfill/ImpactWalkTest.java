package io.batchyard.queue.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.schemas.backfill.ImpactResult;
import io.batchyard.schemas.backfill.ImpactUnit;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ImpactWalkTest {

    /** An archived row: {@code step} of {@code parent} consumed {@code source} in run {@code run} (target {@code target}). */
    private static ConsumedRow archived(long rowId, long source, long target, long parent, long run) {
        return new ConsumedRow(rowId, true, source, target, parent * 10, parent, run, 1, "20260301", false);
    }

    @Test
    void aRunReachedOnTwoPathsIsOneUnitWithBothCausesAndEachBatchIsFollowedOnce() {
        ImpactWalk walk = new ImpactWalk();
        walk.rootRuns(List.of(archived(1, 0, 100, 1, 11)));
        assertThat(walk.nextOutputs()).containsExactly(100L);
        walk.consumed(List.of(archived(2, 100, 200, 2, 21), archived(3, 100, 300, 3, 31)));
        assertThat(walk.nextOutputs()).containsExactlyInAnyOrder(200L, 300L);
        walk.consumed(List.of(archived(4, 200, 400, 4, 41), archived(5, 300, 400, 4, 41)));
        assertThat(walk.nextOutputs()).containsExactly(400L);
        walk.consumed(List.of(archived(6, 400, 100, 1, 11))); // a cycle back to the root's run
        assertThat(walk.nextOutputs()).isEmpty();

        ImpactResult result = walk.result();
        assertThat(result.units()).extracting(ImpactUnit::runId).containsExactly(11L, 21L, 31L, 41L);
        ImpactUnit join = result.units().get(3);
        assertThat(join.inputBatchIds()).containsExactly(200L, 300L);
        assertThat(join.causes()).extracting(c -> c.runId()).containsExactly(21L, 31L);
        assertThat(result.units().get(0).inputBatchIds()).as("the placeholder batch is no input; the cycle's batch is")
                .containsExactly(400L);
        assertThat(result.rowsRead()).isEqualTo(6);
    }

    @Test
    void unclaimedFailedAndRunningRowsAreNotFollowed() {
        ImpactWalk walk = new ImpactWalk();
        walk.rootRuns(List.of(archived(1, 0, 100, 1, 11)));
        walk.nextOutputs();
        walk.consumed(List.of(
                new ConsumedRow(2, false, 100, null, 20, 2L, null, 0, null, false),
                new ConsumedRow(3, false, 100, 300L, 30, 3L, 31L, 2, null, true),
                new ConsumedRow(4, false, 100, 400L, 40, 4L, 41L, 2, null, false)));
        assertThat(walk.result().units()).extracting(ImpactUnit::status)
                .containsExactly("COMPLETED", "FAILED", "RUNNING");
        assertThat(walk.nextOutputs()).isEmpty();
    }

    @Test
    void restatedBatchesMakeRootsOnlyOfRootProcesses() {
        ImpactWalk walk = new ImpactWalk();
        walk.restated(List.of(archived(1, 500, 100, 1, 11), archived(2, 500, 200, 2, 21),
                new ConsumedRow(3, false, 501, null, 10, 1L, null, 0, "20260302", false)), Set.of(1L));
        assertThat(walk.result().units()).extracting(ImpactUnit::status).containsExactly("MISSING", "COMPLETED");
        assertThat(walk.result().units()).allMatch(ImpactUnit::root);
    }

    @Test
    void theFingerprintDependsOnEveryRowRead() {
        ImpactWalk one = new ImpactWalk();
        one.rootRuns(List.of(archived(1, 0, 100, 1, 11)));
        ImpactWalk same = new ImpactWalk();
        same.rootRuns(List.of(archived(1, 0, 100, 1, 11)));
        ImpactWalk other = new ImpactWalk();
        other.rootRuns(List.of(new ConsumedRow(1, false, 0, 100L, 10, 1L, 11L, 2, "20260301", false)));
        assertThat(one.result().fingerprint()).isEqualTo(same.result().fingerprint())
                .isNotEqualTo(other.result().fingerprint()).hasSize(64);
    }
}
