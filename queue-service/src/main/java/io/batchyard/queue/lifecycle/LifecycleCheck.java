package io.batchyard.queue.lifecycle;

import io.batchyard.eventing.InvalidEventException;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.StepFailed;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.queue.batch.Batch;
import io.batchyard.queue.batch.BatchService;
import io.batchyard.queue.claim.Claim;
import io.batchyard.queue.claim.ClaimService;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.avro.specific.SpecificRecord;

/**
 * Checks a lifecycle event against what queue-service knows before it changes anything: every run that can end or
 * run steps was started by InitJob, whose synchronous claim recorded the run, its parent and its target batch before
 * execution-service could emit a single event of it. An event that contradicts its claim (an unknown run, another
 * process, another batch) can never become valid, so it is refused with {@link InvalidEventException} and
 * dead-lettered; trusting it would let any producer on the topic archive a running job's input or push an
 * unfinished batch downstream. The refusal names the ids involved and nothing else. Every check reads in the
 * caller's transaction.
 *
 * <p>A polled batch of events reads the claims and step definitions all its events name up front, two statements
 * instead of two per event ({@link #prefetch}). A run's claim is written once, by InitJob, before any event of the
 * run exists, and a definition changes only with its process's registration; so what the batch read up front is what
 * each event would have read. An id the batch did not find is still read on its own, as a single event's check does.
 */
@ApplicationScoped
public class LifecycleCheck {

    private final ClaimService claims;
    private final BatchService batches;
    private final ProcessDefinitionRepository definitions;

    public LifecycleCheck(ClaimService claims, BatchService batches, ProcessDefinitionRepository definitions) {
        this.claims = claims;
        this.batches = batches;
        this.definitions = definitions;
    }

    /**
     * JobHalted: besides matching its claim, the target batch must still be bound to this run. A failed run's target
     * passes to the run that retries it, and a failed run never halts, so a JobHalted of the superseded run is forged.
     */
    public Uni<Void> halted(Known known, String event, long processId, long run, long targetBatchId) {
        return claimed(known, event, processId, run, targetBatchId).chain(() -> batches.find(targetBatchId))
                .invoke(batch -> {
                    Long boundTo = batch.map(Batch::sourceInstanceExecId).orElse(null);
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
    public Uni<Void> failed(Known known, String event, long processId, long run, Long targetBatchId) {
        return claimed(known, event, processId, run, targetBatchId);
    }

    /**
     * Step events: the parent run's claim must match, and the step must not be known as another process's step. A
     * step the read model does not know yet is let through: its effect touches only rows bound to the run's target,
     * and only the parent's own steps have such rows.
     */
    public Uni<Void> step(Known known, String event, long parentId, long stepId, long parentRun,
                          Long targetBatchId) {
        return claimed(known, event, parentId, parentRun, targetBatchId).chain(() -> known.definition(stepId))
                .invoke(found -> found.ifPresent(step -> {
                    if (step.isParent() || step.parentProcessId() != parentId) {
                        throw new InvalidEventException(event + " of run " + parentRun + ": process " + stepId
                                + " is not a step of process " + parentId);
                    }
                })).replaceWithVoid();
    }

    /** Nothing read up front: each check reads what it needs (a single event). */
    public Known nothingKnown() {
        return new Known(Map.of(), Map.of());
    }

    /** Reads, in two statements, the claims of every run and the definitions of every step that these events name. */
    public Uni<Known> prefetch(List<SpecificRecord> events) {
        Set<Long> runs = new TreeSet<>();
        Set<Long> steps = new TreeSet<>();
        for (SpecificRecord event : events) {
            if (event instanceof StepStarted e) {
                runs.add(e.getParentInstanceExecId());
                steps.add(e.getSubProcessId());
            } else if (event instanceof StepHalted e) {
                runs.add(e.getParentInstanceExecId());
                steps.add(e.getSubProcessId());
            } else if (event instanceof StepFailed e) {
                runs.add(e.getParentInstanceExecId());
                steps.add(e.getSubProcessId());
            } else if (event instanceof JobHalted e) {
                runs.add(e.getInstanceExecId());
            } else if (event instanceof JobFailed e) {
                runs.add(e.getInstanceExecId());
            }
        }
        return claims.findAll(runs).chain(found -> definitions.findAll(steps).map(defined -> new Known(
                found.stream().collect(Collectors.toMap(Claim::instanceExecId, Function.identity())),
                defined.stream().collect(Collectors.toMap(ProcessDefinition::processId, Function.identity())))));
    }

    /** Claims and step definitions already read in the caller's transaction; anything else is read when asked for. */
    public final class Known {

        private final Map<Long, Claim> claimsByRun;
        private final Map<Long, ProcessDefinition> stepsById;

        private Known(Map<Long, Claim> claimsByRun, Map<Long, ProcessDefinition> stepsById) {
            this.claimsByRun = claimsByRun;
            this.stepsById = stepsById;
        }

        Uni<Optional<Claim>> claim(long run) {
            Claim claim = claimsByRun.get(run);
            return claim != null ? Uni.createFrom().item(Optional.of(claim)) : claims.find(run);
        }

        Uni<Optional<ProcessDefinition>> definition(long processId) {
            ProcessDefinition step = stepsById.get(processId);
            return step != null ? Uni.createFrom().item(Optional.of(step)) : definitions.find(processId);
        }
    }

    private Uni<Void> claimed(Known known, String event, long processId, long run, Long targetBatchId) {
        return known.claim(run).invoke(found -> {
            Claim claim = found.orElseThrow(() -> new InvalidEventException(event + " names run "
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
