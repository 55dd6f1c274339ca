package io.batchyard.execution.lifecycle;

import io.batchyard.execution.recovery.LastRecoverableStep;
import io.batchyard.execution.runs.FailureReason;
import io.batchyard.execution.runs.RunLifecycle;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The runner module's {@link RunLifecycle}: each call is the lifecycle API's own, made as {@link
 * LifecycleService#RUNNER}, so a stand-alone run passes the same checks, transitions and events as one a workflow
 * engine drives. Nothing is decided here.
 */
@ApplicationScoped
public class RunnerLifecycle implements RunLifecycle {

    private final LifecycleService lifecycle;
    private final RunService runs;

    public RunnerLifecycle(LifecycleService lifecycle, RunService runs) {
        this.lifecycle = lifecycle;
        this.runs = runs;
    }

    @Override
    public Uni<Started> initJob(long processId, Integer maxBatch, List<Long> sourceBatchIds, UUID backfillId,
                                String correlation) {
        return lifecycle.initJob(LifecycleService.RUNNER, processId, maxBatch, sourceBatchIds, backfillId, correlation)
                .map(s -> new Started(s.instanceExecId(), s.targetBatchId(), s.lastRecoverableSpId(), s.retry(),
                        s.outputs()));
    }

    @Override
    public Uni<Long> initStep(long stepId) {
        return lifecycle.initStep(LifecycleService.RUNNER, stepId, null).map(LifecycleService.StepStart::subInstanceExecId);
    }

    @Override
    public Uni<Void> endStep(long stepId, boolean succeeded) {
        return (succeeded ? lifecycle.haltStep(LifecycleService.RUNNER, stepId, null)
                : lifecycle.termStep(LifecycleService.RUNNER, stepId, null)).replaceWithVoid();
    }

    @Override
    public Uni<Void> haltJob(long processId, String batchMarking) {
        return lifecycle.haltJob(LifecycleService.RUNNER, processId, batchMarking, null).replaceWithVoid();
    }

    @Override
    public Uni<Void> termJob(long processId, FailureReason reason) {
        return lifecycle.termJob(LifecycleService.RUNNER, processId, reason, null).replaceWithVoid();
    }

    @Override
    public Uni<Void> terminateOrphan(long processId, String deadRunner, String correlation) {
        return lifecycle.terminateOrphan(processId, deadRunner, correlation);
    }

    @Override
    public Uni<Optional<Long>> processOfRun(long instanceExecId) {
        return runs.find(instanceExecId).map(run -> run.map(Run::processId));
    }

    @Override
    public Uni<List<LastRecoverableStep.StepRun>> stepRunsSinceLastSuccess(long processId) {
        return runs.stepRunsSinceLastSuccess(processId);
    }
}
