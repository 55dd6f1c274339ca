package io.batchyard.execution.recovery;

import io.batchyard.readmodel.ProcessDefinition;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a re-run of a failed parent resumes: after the most recently completed step that can recover. Unlike the
 * reference (whose filter pile-up returned nothing for parents with two or more steps) every step is considered, and
 * only step runs since the parent's last successful run count.
 */
public final class LastRecoverableStep {

    /** A step's completed run. */
    public record StepRun(long stepId, long instanceExecId, boolean succeeded, java.time.OffsetDateTime endTs) {
    }

    private LastRecoverableStep() {
    }

    /**
     * @param lastRunFailed whether the parent's most recent run ended FAILED
     * @param stepRuns      step runs of the parent's runs since its last success
     * @return the step to resume at; the step itself when it is followed by a fork (its fork is the resume point); the
     *         parent's id when the step was the last one (nothing to resume: start over); empty otherwise
     */
    public static Optional<Long> of(boolean lastRunFailed, List<StepRun> stepRuns, Map<Long, ProcessDefinition> steps) {
        if (!lastRunFailed) {
            return Optional.empty();
        }
        return stepRuns.stream()
                .filter(StepRun::succeeded)
                .filter(r -> r.endTs() != null)
                .sorted(Comparator.comparing(StepRun::endTs).thenComparingLong(StepRun::instanceExecId).reversed())
                .map(r -> steps.get(r.stepId()))
                .filter(s -> s != null && s.canRecover())
                .findFirst()
                .map(x -> x.nextProcessIds().size() == 1 ? x.nextProcessIds().get(0) : x.processId());
    }
}
