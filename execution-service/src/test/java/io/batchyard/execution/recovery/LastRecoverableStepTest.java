package io.batchyard.execution.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.readmodel.ProcessDefinition;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LastRecoverableStepTest {

    private static final OffsetDateTime T0 = OffsetDateTime.parse("2024-01-01T00:00:00Z");

    @Test
    void resumesAfterTheLatestCompletedRecoverableStepOfAChain() {
        Map<Long, ProcessDefinition> steps = Map.of(11L, step(11, true, 12), 12L, step(12, true, 13), 13L, step(13, true, 10));
        List<LastRecoverableStep.StepRun> runs = List.of(run(11, 1, true, 1), run(12, 2, true, 2), run(13, 3, false, 3));
        assertThat(LastRecoverableStep.of(true, runs, steps)).contains(13L);
        assertThat(LastRecoverableStep.of(false, runs, steps)).isEmpty();
    }

    @Test
    void skipsStepsThatCannotRecoverAndResumesAtTheForkAfterAStep() {
        Map<Long, ProcessDefinition> steps = Map.of(11L, step(11, true, 12, 13), 12L, step(12, false, 14),
                13L, step(13, true, 14), 14L, step(14, true, 10));
        List<LastRecoverableStep.StepRun> runs = List.of(run(11, 1, true, 1), run(12, 2, true, 2), run(13, 3, false, 3));
        // 12 completed last but cannot recover; 11 is followed by a fork: resume at 11 (the fork after it)
        assertThat(LastRecoverableStep.of(true, runs, steps)).contains(11L);
    }

    @Test
    void theLastStepPointsBackAtTheParentAndNothingCompletedMeansNothing() {
        Map<Long, ProcessDefinition> steps = Map.of(11L, step(11, true, 10));
        assertThat(LastRecoverableStep.of(true, List.of(run(11, 1, true, 1)), steps)).contains(10L);
        assertThat(LastRecoverableStep.of(true, List.of(run(11, 1, false, 1)), steps)).isEmpty();
    }

    private static ProcessDefinition step(long id, boolean canRecover, long... next) {
        List<Long> nextIds = java.util.Arrays.stream(next).boxed().toList();
        return new ProcessDefinition(id, 10L, "s" + id, 12, canRecover, List.of(), null, nextIds, false, 0, List.of());
    }

    private static LastRecoverableStep.StepRun run(long step, long id, boolean ok, int minute) {
        return new LastRecoverableStep.StepRun(step, id, ok, T0.plusMinutes(minute));
    }
}
