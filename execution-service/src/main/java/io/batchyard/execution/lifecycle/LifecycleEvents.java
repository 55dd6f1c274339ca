package io.batchyard.execution.lifecycle;

import io.batchyard.eventing.Outbox;
import io.batchyard.eventing.StagedEvent;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.StepFailed;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.avro.specific.SpecificRecord;

/**
 * Lifecycle events, staged for the statement that makes the call's state change ({@code stage…}) or appended to the
 * outbox in the lifecycle call's transaction (the returned Uni is chained in it); key = the parent id, so a run's
 * events stay ordered.
 */
@ApplicationScoped
public class LifecycleEvents {

    static final String PRODUCER = "execution-service";

    private final Outbox outbox;

    public LifecycleEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    /** {@code JobStarted} of the run InitJob is about to insert, for the statement that inserts it. */
    StagedEvent stageJobStarted(long processId, long runId, Long targetBatchId, String targetBatchMarking,
                                Long lastRecoverableSpId, boolean retry, String correlation) {
        return outbox.stage(Topics.EXECUTION_LIFECYCLE, processId, jobStartedEvent(processId, runId, targetBatchId,
                targetBatchMarking, lastRecoverableSpId, retry, correlation));
    }

    private static JobStarted jobStartedEvent(long processId, long runId, Long targetBatchId, String targetBatchMarking,
                                              Long lastRecoverableSpId, boolean retry, String correlation) {
        return JobStarted.newBuilder()
                .setHeader(Events.header(PRODUCER, runId, correlation))
                .setProcessId(processId).setInstanceExecId(runId)
                .setTargetBatchId(targetBatchId).setTargetBatchMarking(targetBatchMarking)
                .setLastRecoverableSpId(lastRecoverableSpId).setRetry(retry)
                .build();
    }

    Uni<Void> jobHalted(Run run, String marking, String correlation) {
        return outbox.append(Topics.EXECUTION_LIFECYCLE, run.processId(), jobHaltedEvent(run.processId(),
                run.instanceExecId(), run.targetBatchId(), marking, correlation));
    }

    /** {@code JobHalted} of the running run HaltJob read before its statement ({@link RunRepository.StagedRunEvent}). */
    RunRepository.StagedRunEvent stageJobHalted(long processId, long runId, Long targetBatchId, String marking,
                                                String correlation) {
        return new RunRepository.StagedRunEvent(outbox.stage(Topics.EXECUTION_LIFECYCLE, processId,
                jobHaltedEvent(processId, runId, targetBatchId, marking, correlation)), runId, null, targetBatchId);
    }

    private static JobHalted jobHaltedEvent(long processId, long runId, Long targetBatchId, String marking,
                                            String correlation) {
        return JobHalted.newBuilder()
                .setHeader(Events.header(PRODUCER, runId, correlation))
                .setProcessId(processId).setInstanceExecId(runId)
                .setTargetBatchId(targetBatchId).setBatchMarking(marking)
                .build();
    }

    /** The reason is read from the run as stored, so the event says exactly what {@code GET /runs/{id}} says. */
    Uni<Void> jobFailed(Run run, String correlation) {
        return outbox.append(Topics.EXECUTION_LIFECYCLE, run.processId(), JobFailed.newBuilder()
                .setHeader(Events.header(PRODUCER, run.instanceExecId(), correlation))
                .setProcessId(run.processId()).setInstanceExecId(run.instanceExecId())
                .setTargetBatchId(run.targetBatchId())
                .setErrorCode(run.failureCode()).setErrorText(run.failureText())
                .build());
    }

    /**
     * The event of a step's run as stored after it entered {@code state} (RUNNING: StepStarted, SUCCESS: StepHalted,
     * FAILED: StepFailed), appended by a call whose statement did not write the staged one.
     */
    Uni<Void> step(ExecState state, long parentId, Run step, String correlation) {
        return outbox.append(Topics.EXECUTION_LIFECYCLE, parentId, stepEvent(state, parentId, step.processId(),
                step.instanceExecId(), step.parentInstanceExecId(), step.targetBatchId(), correlation));
    }

    /**
     * The event of a step's run entering {@code state} (RUNNING: StepStarted, SUCCESS: StepHalted, FAILED:
     * StepFailed), staged from the values the call read before its statement; the statement writes it only if the run
     * it moves carries them ({@link RunRepository.StagedRunEvent}).
     */
    RunRepository.StagedRunEvent stageStep(ExecState state, long parentId, long stepId, long runId, Long parentRunId,
                                            Long targetBatchId, String correlation) {
        return new RunRepository.StagedRunEvent(outbox.stage(Topics.EXECUTION_LIFECYCLE, parentId,
                stepEvent(state, parentId, stepId, runId, parentRunId, targetBatchId, correlation)), runId, parentRunId,
                targetBatchId);
    }

    /** The reference's three step events carry the same fields; {@code state} says which one. */
    private static SpecificRecord stepEvent(ExecState state, long parentId, long stepId, long runId, Long parentRunId,
                                            Long targetBatchId, String correlation) {
        return switch (state) {
            case RUNNING -> StepStarted.newBuilder()
                    .setHeader(Events.header(PRODUCER, parentRunId, correlation))
                    .setParentProcessId(parentId).setSubProcessId(stepId)
                    .setSubInstanceExecId(runId).setParentInstanceExecId(parentRunId)
                    .setTargetBatchId(targetBatchId)
                    .build();
            case SUCCESS -> StepHalted.newBuilder()
                    .setHeader(Events.header(PRODUCER, parentRunId, correlation))
                    .setParentProcessId(parentId).setSubProcessId(stepId)
                    .setSubInstanceExecId(runId).setParentInstanceExecId(parentRunId)
                    .setTargetBatchId(targetBatchId)
                    .build();
            case FAILED -> StepFailed.newBuilder()
                    .setHeader(Events.header(PRODUCER, parentRunId, correlation))
                    .setParentProcessId(parentId).setSubProcessId(stepId)
                    .setSubInstanceExecId(runId).setParentInstanceExecId(parentRunId)
                    .setTargetBatchId(targetBatchId)
                    .build();
            default -> throw new IllegalArgumentException("no step event for a run entering " + state);
        };
    }
}
