package io.batchyard.execution.runs;

import io.batchyard.execution.recovery.LastRecoverableStep;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The lifecycle calls the stand-alone runner makes for its runs, as the runner's own identity: the same state machine
 * and events a workflow engine drives through the lifecycle API, reached through this one interface so that the
 * runner module compiles without seeing the lifecycle's repositories or rules. The execution-service application
 * implements it; each call joins the caller's session and transaction, and a refusal fails the {@code Uni} with the
 * lifecycle's own {@link io.batchyard.api.ApiException}.
 */
public interface RunLifecycle {

    /**
     * InitJob's answer as the runner needs it: the run, the batch it writes, where a re-run resumes (null: from the
     * start), whether it retries a failed run, and the claimed batches by name ({@code BATCHYARD_OUT_*}).
     */
    record Started(long instanceExecId, long targetBatchId, Long lastRecoverableSpId, boolean retry,
                   Map<String, String> outputs) {
    }

    /**
     * InitJob of {@code processId} for at most {@code maxBatch} batches per step, or, when {@code sourceBatchIds} is
     * not null, for exactly the queued batches it names (a triggered run consumes what its trigger attributed to it).
     * {@code backfillId}: the backfill the run re-does history for (its output then goes to that backfill only), null
     * for a live run.
     */
    Uni<Started> initJob(long processId, Integer maxBatch, List<Long> sourceBatchIds, UUID backfillId,
                         String correlation);

    /** InitStep of {@code stepId}; the step run's instance execution id. */
    Uni<Long> initStep(long stepId);

    /** HaltStep ({@code succeeded}) or TermStep of {@code stepId}. */
    Uni<Void> endStep(long stepId, boolean succeeded);

    /** HaltJob of {@code processId} with {@code batchMarking} as the run's marking. */
    Uni<Void> haltJob(long processId, String batchMarking);

    /** TermJob of {@code processId}, keeping {@code reason} on the run. */
    Uni<Void> termJob(long processId, FailureReason reason);

    /** Terminates the run a runner that died (its lease expired) left RUNNING, and its running step runs. */
    Uni<Void> terminateOrphan(long processId, String deadRunner, String correlation);

    /** The process a run belongs to; empty for a run this service does not know. */
    Uni<Optional<Long>> processOfRun(long instanceExecId);

    /** Completed step runs of the parent since its last success: what a resumed run may skip. */
    Uni<List<LastRecoverableStep.StepRun>> stepRunsSinceLastSuccess(long processId);
}
