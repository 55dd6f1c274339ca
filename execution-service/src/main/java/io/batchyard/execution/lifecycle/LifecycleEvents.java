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
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jdbi.v3.core.Handle;

/** Lifecycle events, appended to the outbox in the call's transaction; key = the parent id, so a run's events stay ordered. */
@ApplicationScoped
public class LifecycleEvents {

    static final String PRODUCER = "execution-service";

    @Inject
    Outbox outbox;

    void jobStarted(Handle tx, Run run, String targetBatchMarking, String correlation) {
        outbox.append(tx, Topics.EXECUTION_LIFECYCLE, run.processId(), JobStarted.newBuilder()
                .setHeader(Events.header(PRODUCER, run.instanceExecId(), correlation))
                .setProcessId(run.processId()).setInstanceExecId(run.instanceExecId())
                .setTargetBatchId(run.targetBatchId()).setTargetBatchMarking(targetBatchMarking)
                .setLastRecoverableSpId(run.lastRecoverableSpId()).setRetry(run.retry())
                .build());
    }

    void jobHalted(Handle tx, Run run, String marking, String correlation) {
        outbox.append(tx, Topics.EXECUTION_LIFECYCLE, run.processId(), JobHalted.newBuilder()
                .setHeader(Events.header(PRODUCER, run.instanceExecId(), correlation))
                .setProcessId(run.processId()).setInstanceExecId(run.instanceExecId())
                .setTargetBatchId(run.targetBatchId()).setBatchMarking(marking)
                .build());
    }

    void jobFailed(Handle tx, Run run, String correlation) {
        outbox.append(tx, Topics.EXECUTION_LIFECYCLE, run.processId(), JobFailed.newBuilder()
                .setHeader(Events.header(PRODUCER, run.instanceExecId(), correlation))
                .setProcessId(run.processId()).setInstanceExecId(run.instanceExecId())
                .setTargetBatchId(run.targetBatchId())
                .build());
    }

    void stepStarted(Handle tx, long parentId, Run step, String correlation) {
        outbox.append(tx, Topics.EXECUTION_LIFECYCLE, parentId, StepStarted.newBuilder()
                .setHeader(Events.header(PRODUCER, step.parentInstanceExecId(), correlation))
                .setParentProcessId(parentId).setSubProcessId(step.processId())
                .setSubInstanceExecId(step.instanceExecId()).setParentInstanceExecId(step.parentInstanceExecId())
                .setTargetBatchId(step.targetBatchId())
                .build());
    }

    void stepHalted(Handle tx, long parentId, Run step, String correlation) {
        outbox.append(tx, Topics.EXECUTION_LIFECYCLE, parentId, StepHalted.newBuilder()
                .setHeader(Events.header(PRODUCER, step.parentInstanceExecId(), correlation))
                .setParentProcessId(parentId).setSubProcessId(step.processId())
                .setSubInstanceExecId(step.instanceExecId()).setParentInstanceExecId(step.parentInstanceExecId())
                .setTargetBatchId(step.targetBatchId())
                .build());
    }

    void stepFailed(Handle tx, long parentId, Run step, String correlation) {
        outbox.append(tx, Topics.EXECUTION_LIFECYCLE, parentId, StepFailed.newBuilder()
                .setHeader(Events.header(PRODUCER, step.parentInstanceExecId(), correlation))
                .setParentProcessId(parentId).setSubProcessId(step.processId())
                .setSubInstanceExecId(step.instanceExecId()).setParentInstanceExecId(step.parentInstanceExecId())
                .setTargetBatchId(step.targetBatchId())
                .build());
    }
}
