package io.batchyard.queue.lifecycle;

import io.batchyard.eventing.InvalidEventException;
import io.batchyard.queue.batch.BatchRepository;
import io.batchyard.queue.claim.ClaimRepository;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Checks a lifecycle event against what queue-service knows before it changes anything: every run that can end or
 * run steps was started by InitJob, whose synchronous claim recorded the run, its parent and its target batch before
 * execution-service could emit a single event of it. An event that contradicts its claim (an unknown run, another
 * process, another batch) can never become valid, so it is refused with {@link InvalidEventException} and
 * dead-lettered; trusting it would let any producer on the topic archive a running job's input or push an
 * unfinished batch downstream. The refusal names the ids involved and nothing else. Every check reads in the
 * caller's transaction.
 */
@ApplicationScoped
public class LifecycleCheck {

    private final ClaimRepository claims;
    private final BatchRepository batches;
    private final ProcessDefinitionRepository definitions;

    public LifecycleCheck(ClaimRepository claims, BatchRepository batches, ProcessDefinitionRepository definitions) {
        this.claims = claims;
        this.batches = batches;
        this.definitions = definitions;
    }

    /**
     * JobHalted: besides matching its claim, the target batch must still be bound to this run. A failed run's target
     * passes to the run that retries it, and a failed run never halts, so a JobHalted of the superseded run is forged.
     */
    public Uni<Void> halted(String event, long processId, long run, long targetBatchId) {
        return claimed(event, processId, run, targetBatchId).chain(() -> batches.find(targetBatchId)).invoke(batch -> {
            Long boundTo = batch.map(BatchRepository.Batch::sourceInstanceExecId).orElse(null);
            if (boundTo == null || boundTo != run) {
                throw new InvalidEventException(event + " of run " + run + ": target batch " + targetBatchId
                        + " now belongs to run " + boundTo + ", which took it over to retry it");
            }
        }).replaceWithVoid();
    }

    /**
     * JobFailed: its claim must match. The batch may already belong to a retry (the claim is synchronous, the event is
     * not), and marking it failed then changes nothing.
     */
    public Uni<Void> failed(String event, long processId, long run, Long targetBatchId) {
        return claimed(event, processId, run, targetBatchId);
    }

    /**
     * Step events: the parent run's claim must match, and the step must not be known as another process's step. A
     * step the read model does not know yet is let through: its effect touches only rows bound to the run's target,
     * and only the parent's own steps have such rows.
     */
    public Uni<Void> step(String event, long parentId, long stepId, long parentRun, Long targetBatchId) {
        return claimed(event, parentId, parentRun, targetBatchId).chain(() -> definitions.find(stepId))
                .invoke(found -> found.ifPresent(step -> {
                    if (step.isParent() || step.parentProcessId() != parentId) {
                        throw new InvalidEventException(event + " of run " + parentRun + ": process " + stepId
                                + " is not a step of process " + parentId);
                    }
                })).replaceWithVoid();
    }

    private Uni<Void> claimed(String event, long processId, long run, Long targetBatchId) {
        return claims.find(run).invoke(found -> {
            ClaimRepository.Claim claim = found.orElseThrow(() -> new InvalidEventException(event + " names run "
                    + run + " of process " + processId + ", which no InitJob claim of queue-service started"));
            if (claim.parentProcessId() != processId) {
                throw new InvalidEventException(event + " of run " + run + " names process " + processId + ", but run "
                        + run + " is a run of process " + claim.parentProcessId());
            }
            if (targetBatchId == null || claim.targetBatchId() != targetBatchId) {
                throw new InvalidEventException(event + " of run " + run + " names target batch " + targetBatchId
                        + ", but the target batch of run " + run + " is " + claim.targetBatchId());
            }
        }).replaceWithVoid();
    }
}
