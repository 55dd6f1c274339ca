package io.batchyard.execution.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.execution.backfill.BackfillState.Action;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class BackfillStateTest {

    @Test
    void theTransitionTable() {
        assertThat(allowed(BackfillState.QUEUED)).containsExactlyInAnyOrder(BackfillState.RUNNING,
                BackfillState.PAUSED, BackfillState.CANCELLED);
        assertThat(allowed(BackfillState.RUNNING)).containsExactlyInAnyOrder(BackfillState.PAUSED,
                BackfillState.SUCCEEDED, BackfillState.FAILED, BackfillState.CANCELLED);
        assertThat(allowed(BackfillState.PAUSED)).containsExactlyInAnyOrder(BackfillState.QUEUED,
                BackfillState.CANCELLED);
        assertThat(allowed(BackfillState.FAILED)).containsExactlyInAnyOrder(BackfillState.QUEUED,
                BackfillState.CANCELLED);
        assertThat(allowed(BackfillState.SUCCEEDED)).isEmpty();
        assertThat(allowed(BackfillState.CANCELLED)).isEmpty();
        assertThat(Action.RESUME.target()).isEqualTo(BackfillState.QUEUED);
    }

    private static EnumSet<BackfillState> allowed(BackfillState from) {
        EnumSet<BackfillState> to = EnumSet.noneOf(BackfillState.class);
        for (BackfillState s : BackfillState.values()) {
            if (from.canBecome(s)) {
                to.add(s);
            }
        }
        return to;
    }

    private static PlanEntry entry(long process, String bucket, Long run) {
        return new PlanEntry(1, 0, process, bucket, run, List.of(5L), run == null ? "MISSING" : "COMPLETED", true,
                List.of(), null, List.of(), null);
    }

    private static BackfillPlan plan(String fingerprint, PlanEntry... entries) {
        return BackfillPlan.of(UUID.randomUUID(), fingerprint, null, "me", null, List.of(entries));
    }

    @Test
    void aDiffNamesTheEntriesOnlyOneSideHasAndAFingerprintAloneIsStale() {
        PlanDiff diff = PlanDiff.of(plan("a", entry(1, "x", 10L), entry(2, "x", 20L)),
                plan("b", entry(1, "x", 10L), entry(3, "x", 30L)));
        assertThat(diff.added()).containsExactly("process 3 bucket x run 30 COMPLETED inputs [5]");
        assertThat(diff.removed()).containsExactly("process 2 bucket x run 20 COMPLETED inputs [5]");
        assertThat(diff.describe()).startsWith("the queue, its archive or the roots' buckets changed since the plan"
                + " was made: 1 entries more, 1 fewer");
        assertThat(PlanDiff.of(plan("a", entry(1, "x", 10L)), plan("a", entry(1, "x", 10L))).stale()).isFalse();
        assertThat(PlanDiff.of(plan("a", entry(1, "x", 10L)), plan("b", entry(1, "x", 10L))).stale()).isTrue();
    }
}
