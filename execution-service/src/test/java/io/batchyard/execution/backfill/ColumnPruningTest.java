package io.batchyard.execution.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.execution.backfill.BackfillRequest.Root;
import io.batchyard.execution.backfill.PlanEntry.Consumed;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Which entries a column restatement leaves out, on a diamond A → B, C → D (entries 1 A, 2 B, 3 C, 4 D) and a chain
 * behind it (5 E consumes D).
 */
class ColumnPruningTest {

    private static final long A = 1, B = 2, C = 3, D = 4, E = 5;
    private static final List<PlanEntry> DIAMOND = List.of(
            entry(1, 0, A, true),
            entry(2, 1, B, false, new Consumed(1, 100)),
            entry(3, 1, C, false, new Consumed(1, 100)),
            entry(4, 2, D, false, new Consumed(2, 200), new Consumed(3, 300)),
            entry(5, 3, E, false, new Consumed(4, 400)));

    @Test
    void withoutColumnsNothingIsPruned() {
        assertThat(ColumnPruning.prune(DIAMOND, List.of(new Root(A)), Map.of())).isEqualTo(DIAMOND);
    }

    @Test
    void aJobTheColumnDoesNotReachIsPrunedAndTheJoinNoLongerWaitsForIt() {
        List<PlanEntry> out = ColumnPruning.prune(DIAMOND, List.of(new Root(A, List.of("db.a.x"))),
                Map.of("db.a.x", Set.of(B, D, E)));
        assertThat(out).extracting(PlanEntry::runs).containsExactly(true, true, false, true, true);
        assertThat(out.get(2).pruned()).isEqualTo("the column lineage of db.a.x does not reach process 3");
        // D still consumes C's old batch (300), as it is: it waits for B alone
        assertThat(out.get(3).consumes()).containsExactly(new Consumed(2, 200));
        assertThat(out.get(3).inputBatchIds()).containsExactly(200L, 300L);
        // a pruned entry keeps what it consumed from, for the record
        assertThat(out.get(2).consumes()).containsExactly(new Consumed(1, 100));
    }

    @Test
    void anEntryWhoseEveryProducerWasPrunedIsPrunedEvenWhereTheLineageReachesIt() {
        // the lineage reaches D and E, yet neither B nor C re-makes anything D consumes
        List<PlanEntry> out = ColumnPruning.prune(DIAMOND, List.of(new Root(A, List.of("db.a.x"))),
                Map.of("db.a.x", Set.of(D, E)));
        assertThat(out).extracting(PlanEntry::runs).containsExactly(true, false, false, false, false);
        assertThat(out.get(3).pruned()).isEqualTo("nothing it consumes is re-run: entries [2, 3] were pruned");
        assertThat(out.get(4).pruned()).isEqualTo("nothing it consumes is re-run: entries [4] were pruned");
    }

    @Test
    void anyColumnOfTheRootReachingTheJobKeepsIt() {
        List<PlanEntry> out = ColumnPruning.prune(DIAMOND, List.of(new Root(A, List.of("db.a.x", "db.a.y"))),
                Map.of("db.a.x", Set.of(B), "db.a.y", Set.of(C, D, E)));
        assertThat(out).allMatch(PlanEntry::runs);
        assertThat(out.get(3).consumes()).hasSize(2);
    }

    @Test
    void aRootWithoutColumnsKeepsEverythingDownstreamOfIt() {
        // A names a column reaching nothing, but F (a second root, no columns) restated its whole output for D
        long f = 6;
        List<PlanEntry> entries = List.of(
                entry(1, 0, A, true),
                entry(2, 0, f, true),
                entry(3, 1, B, false, new Consumed(1, 100)),
                entry(4, 1, D, false, new Consumed(1, 100), new Consumed(2, 600)));
        List<PlanEntry> out = ColumnPruning.prune(entries, List.of(new Root(A, List.of("db.a.x")), new Root(f)),
                Map.of("db.a.x", Set.of()));
        assertThat(out).extracting(PlanEntry::runs).containsExactly(true, true, false, true);
        assertThat(out.get(3).consumes()).containsExactly(new Consumed(1, 100), new Consumed(2, 600));
        // the same root named once with and once without columns restated its whole output
        assertThat(ColumnPruning.prune(entries, List.of(new Root(A, List.of("db.a.x")), new Root(A), new Root(f)),
                Map.of("db.a.x", Set.of()))).allMatch(PlanEntry::runs);
    }

    @Test
    void rootsAlwaysRun() {
        List<PlanEntry> out = ColumnPruning.prune(DIAMOND, List.of(new Root(A, List.of("db.a.x"))),
                Map.of("db.a.x", Set.of()));
        assertThat(out.get(0).runs()).isTrue();
        assertThat(out.subList(1, 5)).noneMatch(PlanEntry::runs);
    }

    private static PlanEntry entry(int no, int level, long process, boolean root, Consumed... consumes) {
        List<Long> inputs = root ? List.of(10L) : Arrays.stream(consumes).map(Consumed::batchId).toList();
        return new PlanEntry(no, level, process, "20260301", 1000L + no, inputs, "COMPLETED", root, List.of(),
                null, List.of(consumes), null);
    }
}
