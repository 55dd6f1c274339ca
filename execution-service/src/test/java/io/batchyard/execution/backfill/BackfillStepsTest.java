package io.batchyard.execution.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What a running backfill starts, skips and ends in: the rules alone. */
class BackfillStepsTest {

    private static final UUID ID = UUID.randomUUID();

    /** A diamond over one bucket: 1 (process 10) feeds 2 (20) and 3 (30), 4 (40) joins them. */
    private static List<EntryRun> diamond(EntryState s1, EntryState s2, EntryState s3, EntryState s4) {
        return List.of(entry(1, 0, 10, s1), entry(2, 1, 20, s2, 1), entry(3, 1, 30, s3, 1),
                entry(4, 2, 40, s4, 2, 3));
    }

    private static EntryRun entry(int no, int level, long process, EntryState state, int... consumes) {
        List<PlanEntry.Consumed> from = new ArrayList<>();
        for (int c : consumes) {
            from.add(new PlanEntry.Consumed(c, 1000 + c));
        }
        return new EntryRun(ID, no, level, process, "20260301", state, null, null, null, null, null, null, from,
                List.of(), "COMPLETED");
    }

    private static List<Integer> numbers(List<EntryRun> entries) {
        return entries.stream().map(EntryRun::entryNo).toList();
    }

    @Test
    void levelByLevelUpToTheConcurrency() {
        var p = EntryState.PENDING;
        var s = EntryState.SUCCEEDED;
        var next = BackfillSteps.next(BackfillState.RUNNING, "stop", 2, diamond(p, p, p, p), Set.of());
        assertThat(numbers(next.start())).as("only the root: level 1 waits for it").containsExactly(1);
        next = BackfillSteps.next(BackfillState.RUNNING, "stop", 2, diamond(s, p, p, p), Set.of());
        assertThat(numbers(next.start())).containsExactly(2, 3);
        next = BackfillSteps.next(BackfillState.RUNNING, "stop", 1, diamond(s, p, p, p), Set.of());
        assertThat(numbers(next.start())).as("concurrency 1").containsExactly(2);
        next = BackfillSteps.next(BackfillState.RUNNING, "stop", 2, diamond(s, EntryState.RUNNING, p, p), Set.of());
        assertThat(numbers(next.start())).as("one in flight, one more").containsExactly(3);
        next = BackfillSteps.next(BackfillState.RUNNING, "stop", 2, diamond(s, s, EntryState.STARTING, p), Set.of());
        assertThat(next.start()).as("the join waits for both sides").isEmpty();
        next = BackfillSteps.next(BackfillState.RUNNING, "stop", 2, diamond(s, s, s, p), Set.of());
        assertThat(numbers(next.start())).containsExactly(4);
        next = BackfillSteps.next(BackfillState.RUNNING, "stop", 2, diamond(s, s, s, s), Set.of());
        assertThat(next.end()).contains(BackfillState.SUCCEEDED);
    }

    @Test
    void liveWorkAndTheRunnersOneRunPerProcessComeFirst() {
        var p = EntryState.PENDING;
        var s = EntryState.SUCCEEDED;
        var next = BackfillSteps.next(BackfillState.RUNNING, "stop", 2, diamond(s, p, p, p), Set.of(20L));
        assertThat(numbers(next.start())).as("process 20 has a live run in flight").containsExactly(3);
        List<EntryRun> twoBuckets = List.of(entry(1, 0, 10, p), entry(2, 0, 10, p), entry(3, 0, 11, p));
        next = BackfillSteps.next(BackfillState.RUNNING, "stop", 3, twoBuckets, Set.of());
        assertThat(numbers(next.start())).as("one run of a process at a time").containsExactly(1, 3);
    }

    @Test
    void stopEndsAtTheFirstFailureAndContinueSkipsOnlyWhatConsumesFromIt() {
        var p = EntryState.PENDING;
        var s = EntryState.SUCCEEDED;
        var f = EntryState.FAILED;
        var stop = BackfillSteps.next(BackfillState.RUNNING, "stop", 2, diamond(s, f, EntryState.RUNNING, p),
                Set.of());
        assertThat(stop.end()).contains(BackfillState.FAILED);
        assertThat(stop.start()).isEmpty();

        var go = BackfillSteps.next(BackfillState.RUNNING, "continue", 2, diamond(s, f, EntryState.RUNNING, p),
                Set.of());
        assertThat(numbers(go.skip())).as("4 consumes from 2").containsExactly(4);
        assertThat(go.end()).as("3 is still running").isEmpty();
        go = BackfillSteps.next(BackfillState.RUNNING, "continue", 2, diamond(s, f, s, EntryState.SKIPPED), Set.of());
        assertThat(go.end()).contains(BackfillState.FAILED);

        // a failed root: the whole diamond below it is skipped in one pass
        go = BackfillSteps.next(BackfillState.RUNNING, "continue", 2, diamond(f, p, p, p), Set.of());
        assertThat(numbers(go.skip())).containsExactly(2, 3, 4);
        assertThat(go.end()).contains(BackfillState.FAILED);
    }

    @Test
    void nothingStartsUnlessRunning() {
        var p = EntryState.PENDING;
        for (BackfillState state : List.of(BackfillState.PAUSED, BackfillState.CANCELLED, BackfillState.QUEUED,
                BackfillState.FAILED)) {
            var next = BackfillSteps.next(state, "stop", 2, diamond(p, p, p, p), Set.of());
            assertThat(next.start()).as(state.name()).isEmpty();
            assertThat(next.end()).isEqualTo(Optional.empty());
        }
    }

    @Test
    void theEntryStatesMoveOnlyByTheirTable() {
        assertThat(EntryState.PENDING.canBecome(EntryState.STARTING)).isTrue();
        assertThat(EntryState.SUCCEEDED.canBecome(EntryState.PENDING)).as("a success is never redone").isFalse();
        assertThat(EntryState.FAILED.canBecome(EntryState.PENDING)).as("a resume").isTrue();
        assertThat(EntryState.RUNNING.canBecome(EntryState.STARTING)).as("a run that could not start yet").isTrue();
        assertThat(EntryState.PENDING.canBecome(EntryState.SUCCEEDED)).isFalse();
    }
}
