package io.batchyard.lineage.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.lineage.process.ProcessLineage.Enqueue;
import io.batchyard.lineage.process.ProcessLineage.Run;
import io.batchyard.lineage.process.ProcessLineage.StepRun;
import io.batchyard.lineage.process.ProjectionFold.Consumption;
import io.batchyard.lineage.process.ProjectionFold.Plan;
import io.batchyard.lineage.process.ProjectionFold.Write;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A batch's run and step events folded into one row per run and step run: upserted with the rule of
 * {@link ProcessLineageRepository}'s statements (modelled below), the folded row leaves what the events upserted one
 * after the other leave, whatever row was stored before; where that cannot be known, the fold declines.
 */
class ProjectionFoldTest {

    private static final long RUN = 10;
    private static final long STEP = 20;

    @Test
    void aRunThatStartsAndEndsInOneBatchFoldsToItsEnd() {
        assertThat(folded(started(1, 7L, "2024-05-01"), halted(4, 7L, "2024-05-01")))
                .isEqualTo(new Run(RUN, 1, 7L, "2024-05-01", "SUCCESS", at(1), at(4)));
    }

    @Test
    void aRunThatOnlyStartsKeepsTheFirstStartAndNoEnd() {
        assertThat(folded(started(2, 7L, "m"), started(3, 7L, "m")))
                .isEqualTo(new Run(RUN, 1, 7L, "m", "RUNNING", at(2), null));
    }

    @Test
    void targetBatchAndMarkingAreTheLastOnesGiven() {
        assertThat(folded(started(1, 7L, "m1"), failed(2, null)))
                .isEqualTo(new Run(RUN, 1, 7L, "m1", "FAILED", at(1), at(2)));
        assertThat(folded(started(1, 7L, "m1"), halted(2, 8L, "m2")))
                .isEqualTo(new Run(RUN, 1, 8L, "m2", "SUCCESS", at(1), at(2)));
    }

    /**
     * A retry within one batch is RUNNING again with the first start, one by one; but the failed attempt's own row
     * fails {@code ended_after_start} when an earlier batch stored a later start, which the folded row would hide.
     */
    @Test
    void aRetriedRunInOneBatchIsNotFolded() {
        List<Run> retried = List.of(started(2, 7L, "m"), failed(3, null), started(5, 7L, "m"));
        assertThat(ProjectionFold.foldRun(retried)).isEmpty();
        assertThat(oneByOne(null, retried)).isEqualTo(new Run(RUN, 1, 7L, "m", "RUNNING", at(2), null));
        Run laterStart = new Run(RUN, 1, 7L, "m", "RUNNING", at(4), null);
        assertThatThrownBy(() -> oneByOne(laterStart, retried)).hasMessageContaining("ended_after_start");
    }

    @Test
    void aRunEndedBeforeItStartedIsNotFolded() {
        List<Run> events = List.of(halted(5, 7L, "m"), started(3, 7L, "m"));
        assertThat(ProjectionFold.foldRun(events)).isEmpty();
        assertThat(oneByOne(null, events)).isEqualTo(new Run(RUN, 1, 7L, "m", "RUNNING", at(3), null));
    }

    @Test
    void aStepThatStartsAndEndsInOneBatchFoldsToItsEnd() {
        assertThat(folded(step("RUNNING", 1), step("SUCCESS", 4)))
                .isEqualTo(new StepRun(STEP, 21, 1, RUN, "SUCCESS", at(1), at(4)));
    }

    /** The end makes the row (started then); the late start changes nothing. */
    @Test
    void aStepEndedBeforeItStartedKeepsTheEnd() {
        assertThat(folded(step("FAILED", 5), step("RUNNING", 3)))
                .isEqualTo(new StepRun(STEP, 21, 1, RUN, "FAILED", at(5), at(5)));
    }

    @Test
    void aStepThatOnlyStartsLeavesAStoredEnd() {
        assertThat(folded(step("RUNNING", 2), step("RUNNING", 3)))
                .isEqualTo(new StepRun(STEP, 21, 1, RUN, "RUNNING", at(2), null));
    }

    /** One by one the new row's end is raised to its start; a folded insert would store the earlier end as it is. */
    @Test
    void aStepWhoseEndIsEarlierThanItsFirstEventIsNotFolded() {
        List<StepRun> events = List.of(step("RUNNING", 5), step("SUCCESS", 3));
        assertThat(ProjectionFold.foldStep(events)).isEmpty();
        assertThat(oneByOne(null, events).endedAt()).isEqualTo(at(5));
    }

    @Test
    void aPlanWritesEachKeyOnceAndTheFirstOfferOrConsumptionWins() {
        Enqueue offer = new Enqueue(30, 300, 3L, 31, "m", at(1));
        Consumption consumed = new Consumption(4, 400, 401, at(2));
        Plan plan = ProjectionFold.plan(List.of(Write.of(started(1, 7L, "m")), Write.of(offer),
                Write.of(step("RUNNING", 2)), Write.of(List.of(consumed, new Consumption(4, 400, 402, at(2)))),
                Write.of(new Enqueue(30, 300, 3L, 31, "other", at(3))), Write.of(step("SUCCESS", 3)),
                Write.of(List.of(new Consumption(4, 400, 401, at(4)))), Write.of(halted(4, 7L, "m"))), false);
        assertThat(plan.runs()).containsExactly(new Run(RUN, 1, 7L, "m", "SUCCESS", at(1), at(4)));
        assertThat(plan.steps()).containsExactly(new StepRun(STEP, 21, 1, RUN, "SUCCESS", at(2), at(3)));
        assertThat(plan.enqueues()).containsExactly(offer);
        assertThat(plan.consumptions()).containsExactly(consumed, new Consumption(4, 400, 402, at(2)));
        assertThat(plan.oneByOne()).isEmpty();
    }

    @Test
    void aKeyTheFoldDeclinesIsWrittenOneEventAtATime() {
        Plan plan = ProjectionFold.plan(List.of(Write.of(halted(5, 7L, "m")), Write.of(step("RUNNING", 5)),
                Write.of(started(3, 7L, "m")), Write.of(step("SUCCESS", 6))), false);
        assertThat(plan.runs()).isEmpty();
        assertThat(plan.steps()).hasSize(1);
        assertThat(plan.oneByOne()).containsExactlyInAnyOrder(0, 2);
    }

    /** The step's transition must find its parent RUNNING, as it was then, not ended by the later JobHalted. */
    @Test
    void aRunWhoseStepReadsItBeforeItEndsIsWrittenOneEventAtATime() {
        List<Write> writes = List.of(Write.of(step("SUCCESS", 4)), Write.of(halted(5, 7L, "m")));
        assertThat(ProjectionFold.plan(writes, true).oneByOne()).containsExactly(1);
        assertThat(ProjectionFold.plan(writes, false).oneByOne()).isEmpty();
    }

    /** The start's transition reads the marking it gave, not the end's. */
    @Test
    void aRunWhoseMarkingChangesAfterATransitionReadItIsWrittenOneEventAtATime() {
        assertThat(ProjectionFold.plan(List.of(Write.of(started(1, 7L, "m1")), Write.of(halted(2, 7L, "m2"))), true)
                .oneByOne()).containsExactlyInAnyOrder(0, 1);
        Plan same = ProjectionFold.plan(List.of(Write.of(started(1, 7L, "m")), Write.of(halted(2, 7L, "m"))), true);
        assertThat(same.oneByOne()).isEmpty();
        assertThat(same.runs()).containsExactly(new Run(RUN, 1, 7L, "m", "SUCCESS", at(1), at(2)));
    }

    /** The run's START lists its step runs' datasets: the step's row must not be there before the step started. */
    @Test
    void aStepThatStartsAfterItsParentsTransitionIsWrittenOneEventAtATime() {
        Plan plan = ProjectionFold.plan(List.of(Write.of(started(1, 7L, "m")), Write.of(step("RUNNING", 2)),
                Write.of(step("SUCCESS", 3))), true);
        assertThat(plan.runs()).hasSize(1);
        assertThat(plan.steps()).isEmpty();
        assertThat(plan.oneByOne()).containsExactlyInAnyOrder(1, 2);
    }

    // Today's upserts, as the statements' ON CONFLICT rules and checks say; a null stored row is none.

    private static Run upsert(Run stored, Run row) {
        Run next = stored == null ? row : new Run(stored.instanceExecId(), stored.processId(),
                row.targetBatchId() != null ? row.targetBatchId() : stored.targetBatchId(),
                row.batchMarking() != null ? row.batchMarking() : stored.batchMarking(), row.state(),
                stored.startedAt() != null ? stored.startedAt() : row.startedAt(),
                "RUNNING".equals(row.state()) ? null : row.endedAt());
        if (next.endedAt() != null && next.startedAt() != null && next.endedAt().isBefore(next.startedAt())) {
            throw new IllegalStateException("ended_after_start");
        }
        return next;
    }

    private static StepRun upsert(StepRun stored, StepRun row) {
        StepRun next = stored == null ? row : "RUNNING".equals(row.state()) ? stored
                : new StepRun(stored.subInstanceExecId(), stored.subProcessId(), stored.parentProcessId(),
                stored.parentInstanceExecId(), row.state(), stored.startedAt(),
                row.endedAt().isBefore(stored.startedAt()) ? stored.startedAt() : row.endedAt());
        if (next.endedAt() != null && next.endedAt().isBefore(next.startedAt())) {
            throw new IllegalStateException("step_ended_after_start");
        }
        return next;
    }

    private static Run oneByOne(Run stored, List<Run> events) {
        Run row = stored;
        for (Run e : events) {
            row = upsert(row, e);
        }
        return row;
    }

    private static StepRun oneByOne(StepRun stored, List<StepRun> events) {
        StepRun row = stored;
        for (StepRun e : events) {
            row = upsert(row, e);
        }
        return row;
    }

    /**
     * The run's folded row, having checked that over no stored row and stored rows of every kind it leaves what the
     * events one by one leave.
     */
    private static Run folded(Run... events) {
        Run folded = ProjectionFold.foldRun(List.of(events)).orElseThrow();
        for (Run stored : Arrays.asList(null, new Run(RUN, 1, 6L, "old", "RUNNING", at(0), null),
                new Run(RUN, 1, 6L, "old", "FAILED", at(0), at(1)), new Run(RUN, 1, null, null, "SUCCESS", null,
                        at(1)))) {
            assertThat(upsert(stored, folded)).as("over %s", stored).isEqualTo(oneByOne(stored, List.of(events)));
        }
        return folded;
    }

    /** {@link #folded(Run...)} for a step run. */
    private static StepRun folded(StepRun... events) {
        StepRun folded = ProjectionFold.foldStep(List.of(events)).orElseThrow();
        for (StepRun stored : Arrays.asList(null, new StepRun(STEP, 21, 1, RUN, "RUNNING", at(0), null),
                new StepRun(STEP, 21, 1, RUN, "SUCCESS", at(0), at(1)))) {
            assertThat(upsert(stored, folded)).as("over %s", stored).isEqualTo(oneByOne(stored, List.of(events)));
        }
        return folded;
    }

    private static Run started(int minute, Long batch, String marking) {
        return new Run(RUN, 1, batch, marking, "RUNNING", at(minute), null);
    }

    private static Run halted(int minute, Long batch, String marking) {
        return new Run(RUN, 1, batch, marking, "SUCCESS", null, at(minute));
    }

    private static Run failed(int minute, Long batch) {
        return new Run(RUN, 1, batch, null, "FAILED", null, at(minute));
    }

    /** A step event's row: started then, ended then unless it starts. */
    private static StepRun step(String state, int minute) {
        return new StepRun(STEP, 21, 1, RUN, state, at(minute), "RUNNING".equals(state) ? null : at(minute));
    }

    private static OffsetDateTime at(int minute) {
        return OffsetDateTime.of(2024, 5, 1, 6, minute, 0, 0, ZoneOffset.UTC);
    }
}
