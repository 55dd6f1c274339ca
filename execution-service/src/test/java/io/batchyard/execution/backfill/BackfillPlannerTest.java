package io.batchyard.execution.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.execution.bucket.BucketStatus;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.schemas.backfill.ImpactCause;
import io.batchyard.schemas.backfill.ImpactResult;
import io.batchyard.schemas.backfill.ImpactUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BackfillPlannerTest {

    private static ImpactUnit unit(long process, long run, boolean root, ImpactCause... causes) {
        return new ImpactUnit(process, run, run + 1000, "COMPLETED", "b" + process, root, List.of(), List.of(causes));
    }

    @Test
    void levelsAreTheLongestPathFromARootAndTheReasonFollowsTheFirstCause() {
        // A -> B -> D, A -> D directly: D waits for B, so it is level 2, not 1
        List<ImpactUnit> units = List.of(
                unit(4, 40, false, new ImpactCause(1, 10, 1010), new ImpactCause(2, 20, 1020)),
                unit(2, 20, false, new ImpactCause(1, 10, 1010)),
                unit(1, 10, true));
        List<PlanEntry> plan = BackfillPlanner.plan(units, ImpactUnit::marking, Map.of(1L, 500L));
        assertThat(plan).extracting(PlanEntry::processId).containsExactly(1L, 2L, 4L);
        assertThat(plan).extracting(PlanEntry::level).containsExactly(0, 1, 2);
        assertThat(plan).extracting(PlanEntry::entryNo).containsExactly(1, 2, 3);
        assertThat(plan.get(2).reason()).extracting(PlanEntry.ReasonLink::processId).containsExactly(1L, 4L);
        assertThat(plan.get(2).reason().get(1).batchId()).isEqualTo(1010L);
        assertThat(plan).extracting(PlanEntry::estimatedMs).containsExactly(500L, null, null);
        assertThat(BackfillPlan.of(null, "f", null, "me", null, plan).levels()).isEqualTo(3);
        // what each entry waits for, and the batches whose re-made versions it re-runs on
        assertThat(plan.get(0).consumes()).isEmpty();
        assertThat(plan.get(1).consumes()).containsExactly(new PlanEntry.Consumed(1, 1010));
        assertThat(plan.get(2).consumes()).containsExactly(new PlanEntry.Consumed(1, 1010),
                new PlanEntry.Consumed(2, 1020));
    }

    @Test
    void aCauseOutsideThePlanAddsNoLevel() {
        List<PlanEntry> plan = BackfillPlanner.plan(List.of(unit(2, 20, false, new ImpactCause(1, 10, 1010))),
                ImpactUnit::marking, Map.of());
        assertThat(plan.get(0).level()).isZero();
        assertThat(plan.get(0).reason()).hasSize(1);
    }

    private static BucketStatus bucket(long process, String bucket, State state, Long run) {
        return new BucketStatus(process, bucket, state, run, 1, null, null, null);
    }

    private static BackfillRequest range(String mode) {
        return new BackfillRequest(List.of(new BackfillRequest.Root(1L)), null, "20260301", "20260304", mode, null);
    }

    @Test
    void eachModeAsksForItsRunsAndCountsTheBucketsThatNeverRan() {
        List<BucketStatus> ledger = List.of(bucket(1, "20260301", State.COMPLETE, 11L),
                bucket(1, "20260302", State.FAILED, 12L), bucket(1, "20260303", State.INIT, null));
        ImpactResult none = new ImpactResult("0".repeat(64), 0, List.of());

        RootSelection all = RootSelection.of(range("all"), List.of(1L), ledger);
        assertThat(all.runIds()).containsExactly(11L, 12L);
        assertThat(all.cascades(range("all"))).isTrue();
        assertThat(all.units(none)).extracting(ImpactUnit::marking).containsExactly("20260303", "20260304");

        RootSelection failed = RootSelection.of(range("failed"), List.of(1L), ledger);
        assertThat(failed.runIds()).containsExactly(12L);
        assertThat(failed.cascades(range("failed"))).isFalse();
        assertThat(failed.units(new ImpactResult("0".repeat(64), 2, List.of(
                new ImpactUnit(1, 11L, 1L, "COMPLETED", null, true, List.of(), List.of()),
                new ImpactUnit(1, 12L, 2L, "FAILED", null, true, List.of(), List.of())))))
                .extracting(ImpactUnit::runId).containsExactly(12L);

        RootSelection missing = RootSelection.of(range("missing"), List.of(1L), ledger);
        assertThat(missing.runIds()).isEmpty();
        assertThat(missing.units(none)).extracting(ImpactUnit::marking).containsExactly("20260303", "20260304");
    }

    @Test
    void theFingerprintCoversTheLedgerAsWellAsTheQueue() {
        ImpactResult answer = new ImpactResult("a".repeat(64), 0, List.of());
        String before = RootSelection.of(range("all"), List.of(1L),
                List.of(bucket(1, "20260301", State.COMPLETE, 11L))).fingerprint(answer);
        String after = RootSelection.of(range("all"), List.of(1L),
                List.of(bucket(1, "20260301", State.COMPLETE, 13L))).fingerprint(answer);
        assertThat(before).matches("[0-9a-f]{64}").isNotEqualTo(after);
        assertThat(RootSelection.of(range("all"), List.of(1L), List.of(bucket(1, "20260301", State.COMPLETE, 11L)))
                .fingerprint(new ImpactResult("b".repeat(64), 0, List.of()))).isNotEqualTo(before);
    }
}
