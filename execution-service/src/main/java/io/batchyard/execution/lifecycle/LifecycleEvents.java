package io.batchyard.execution.lifecycle;

import io.batchyard.eventing.Outbox;
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

/**
 * Lifecycle events, appended to the outbox in the lifecycle call's transaction (the returned Uni is chained in it);
 * key = the parent id, so a run's events stay ordered.
 */
@ApplicationScoped
public class LifecycleEvents {

    static final String PRODUCER = "execution-service";

    private final Outbox outbox;

    public LifecycleEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    Uni<Void> jobStarted(Run run, String targetBatchMarking, String correlation) {
        return outbox.append(Topics.EXECUTION_LIFECYCLE, run.processId(), JobStarted.newBuilder()
                .setHeader(Events.header(PRODUCER, run.instanceExecId(), correlation))
                .setProcessId(run.processId()).setInstanceExecId(run.instanceExecId())
                .setTargetBatchId(run.targetBatchId()).setTargetBatchMarking(targetBatchMarking)
                .setLastRecoverableSpId(run.lastRecoverableSpId()).setRetry(run.retry())
                .build());
    }

    Uni<Void> jobHalted(Run run, String marking, String correlation) {
        return outbox.append(Topics.EXECUTION_LIFECYCLE, run.processId(), JobHalted.newBuilder()
                .setHeader(Events.header(PRODUCER, run.instanceExecId(), correlation))
                .setProcessId(run.processId()).setInstanceExecId(run.instanceExecId())
                .setTargetBatchId(run.targetBatchId()).setBatchMarking(marking)
                .build());
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

    Uni<Void> stepStarted(long parentId, Run step, String correlation) {
        return outbox.append(Topics.EXECUTION_LIFECYCLE, parentId, StepStarted.newBuilder()
                .setHeader(Events.header(PRODUCER, step.parentInstanceExecId(), correlation))
                .setParentProcessId(parentId).setSubProcessId(step.processId())
                .setSubInstanceExecId(step.instanceExecId()).setParentInstanceExecId(step.parentInstanceExecId())
                .setTargetBatchId(step.targetBatchId())
                .build());
    }

    Uni<Void> stepHalted(long parentId, Run step, String correlation) {
        return outbox.append(Topics.EXECUTION_LIFECYCLE, parentId, StepHalted.newBuilder()
                .setHeader(Events.header(PRODUCER, step.parentInstanceExecId(), correlation))
                .setParentProcessId(parentId).setSubProcessId(step.processId())
                .setSubInstanceExecId(step.instanceExecId()).setParentInstanceExecId(step.parentInstanceExecId())
                .setTargetBatchId(step.targetBatchId())
                .build());
    }

    Uni<Void> stepFailed(long parentId, Run step, String correlation) {
        return outbox.append(Topics.EXECUTION_LIFECYCLE, parentId, StepFailed.newBuilder()
                .setHeader(Events.header(PRODUCER, step.parentInstanceExecId(), correlation))
                .setParentProcessId(parentId).setSubProcessId(step.processId())
                .setSubInstanceExecId(step.instanceExecId()).setParentInstanceExecId(step.parentInstanceExecId())
                .setTargetBatchId(step.targetBatchId())
                .build());
    }
}
