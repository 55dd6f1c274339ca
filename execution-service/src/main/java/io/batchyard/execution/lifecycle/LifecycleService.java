package io.batchyard.execution.lifecycle;

import static io.batchyard.api.LifecycleError.INVALID_PARENT_PROCESS;
import static io.batchyard.api.LifecycleError.INVALID_SUB_PROCESS;
import static io.batchyard.api.LifecycleError.MAX_BATCH_NULL;
import static io.batchyard.api.LifecycleError.PARENT_ALREADY_RUNNING;
import static io.batchyard.api.LifecycleError.PARENT_NOT_RUNNING;
import static io.batchyard.api.LifecycleError.PROCESS_NOT_RUNNING;
import static io.batchyard.api.LifecycleError.SUB_PROCESS_ALREADY_RUNNING;
import static io.batchyard.api.LifecycleError.SUB_PROCESS_FAILED;
import static io.batchyard.api.LifecycleError.SUB_PROCESS_NOT_RUNNING;
import static io.batchyard.api.LifecycleError.SUB_PROCESS_RUNNING;
import static io.batchyard.execution.ExecutionError.CONCURRENT_CHANGE;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.execution.access.ProcessPermission;
import io.batchyard.execution.recovery.LastRecoverableStep;
import io.batchyard.execution.runs.FailureReason;
import io.batchyard.persistence.InOrder;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.batchyard.readmodel.ProcessDefinitionRepository.Guarded;
import io.batchyard.readmodel.ProcessDefinitionRepository.GuardedWith;
import io.batchyard.schemas.BatchMarking;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * The six lifecycle calls (InitJob, InitStep, HaltStep, TermStep, HaltJob, TermJob), each one transaction: a caller
 * already in a transaction (a command with its ledger row, a runner claim) makes the call join it. Every call first
 * locks its parent's read-model row (a step's call in the statement that reads the step), so calls on one parent are
 * serialised; checks run in the reference's order and the first failure wins, with the public code and the
 * reference text. A rejected call changes nothing.
 */
@ApplicationScoped
public class LifecycleService {

    private static final Logger LOG = Logger.getLogger(LifecycleService.class);
    /** Who acts when the runner or recovery makes a call that a checked launch or the service itself decided on. */
    public static final Caller RUNNER = Caller.system("batchyard-runner");

    /**
     * InitJob's answer: the run, its target batch, where to resume, the output keys, and the queue rows the run
     * claimed (ordered by step and source batch), for a caller that needs more than the keys summarise.
     */
    public record JobStart(long instanceExecId, long targetBatchId, Long lastRecoverableSpId, boolean retry,
                           Map<String, String> outputs, List<InitJobOutput.ClaimedRow> rows) {
    }

    /** InitStep's answer (the reference emitted 0 for the id). */
    public record StepStart(long subInstanceExecId, long subProcessId) {
    }

    private final ProcessDefinitionRepository definitions;
    private final RunRepository runs;
    private final QueueClient queue;
    private final LifecycleEvents events;
    private final ProcessPermission permission;
    private final LifecycleMeters meters;

    public LifecycleService(ProcessDefinitionRepository definitions, RunRepository runs, QueueClient queue,
                            LifecycleEvents events, ProcessPermission permission, LifecycleMeters meters) {
        this.definitions = definitions;
        this.runs = runs;
        this.queue = queue;
        this.events = events;
        this.permission = permission;
        this.meters = meters;
    }

    @WithTransaction
    public Uni<JobStart> initJob(Caller caller, long pid, Integer maxBatch, String correlation) {
        return initJob(caller, pid, maxBatch, null, null, correlation);
    }

    /**
     * InitJob whose run claims exactly the batches {@code sourceBatchIds} names (a run a trigger attributed them to),
     * whatever {@code maxBatch}; null is the ordinary claim. {@code backfillId}: the backfill this run re-does history
     * for, null for a live run (queue-service then keeps the run's output for that backfill).
     */
    @WithTransaction
    public Uni<JobStart> initJob(Caller caller, long pid, Integer maxBatch, List<Long> sourceBatchIds,
                                 UUID backfillId, String correlation) {
        return meters.observe("InitJob", pid, () -> startJob(caller, pid, maxBatch, sourceBatchIds, backfillId,
                correlation));
    }

    private Uni<JobStart> startJob(Caller caller, long pid, Integer maxBatch, List<Long> sourceBatchIds,
                                   UUID backfillId, String correlation) {
        return definitions.lockGuardedWithSteps(pid).chain(job -> {
            Optional<ProcessDefinition> parent = mayExecute(caller, job.parent(), invalidParent(pid));
            List<ProcessDefinition> steps = liveSteps(parent, job.steps());
            if (maxBatch == null && steps.stream().anyMatch(s -> s.isEnqueued() && !s.hasCutPattern())) {
                throw MAX_BATCH_NULL.exception("max_batch cannot be null");
            }
            if (parent.isEmpty() || !parent.get().isParent() || parent.get().deleted() || steps.isEmpty()) {
                throw invalidParent(pid).get();
            }
            // What the checks and the resume point need, and the new run's id, in one read after the lock.
            return runs.jobStartReads(pid, withParent(pid, steps)).chain(reads -> {
                List<Run> running = reads.running();
                if (running.stream().anyMatch(r -> r.processId() == pid)) {
                    throw PARENT_ALREADY_RUNNING.exception("Parent Process is already running. pid=" + pid);
                }
                if (!running.isEmpty()) {
                    throw SUB_PROCESS_RUNNING.exception("Sub-processes already running! Cannot start this parent process"
                            + pid);
                }
                Optional<Run> latest = reads.latest();
                List<LastRecoverableStep.StepRun> stepRuns = reads.sinceLastSuccess();
                boolean lastFailed = latest.map(r -> r.state() == ExecState.FAILED).orElse(false);
                // The queue archives the last successful run's rows before claiming, in case its JobHalted is still in flight.
                Long completedTarget = latest.filter(r -> r.state() == ExecState.SUCCESS).map(Run::targetBatchId)
                        .orElse(null);
                Long lastRecoverable = LastRecoverableStep.of(lastFailed, stepRuns, steps.stream()
                        .collect(Collectors.toMap(ProcessDefinition::processId, Function.identity()))).orElse(null);
                // The id is drawn before the claim because the queue records which run claimed the batch.
                long ie = reads.nextId();
                return queue.claim(pid, ie, maxBatch, completedTarget, sourceBatchIds, backfillId).chain(claim -> {
                    Map<String, String> outputs = InitJobOutput.of(ie, claim.targetBatchId(), lastRecoverable,
                            claim.rows());
                    // Every field of JobStarted is known now, so the statement that inserts the run writes it too.
                    return runs.start(ie, pid, null, claim.targetBatchId(), claim.retry(), lastRecoverable, "InitJob",
                                    Optional.of(events.stageJobStarted(pid, ie, claim.targetBatchId(),
                                            outputs.get("target-batch-marking"), lastRecoverable, claim.retry(),
                                            correlation)))
                            .replaceWith(new JobStart(ie, claim.targetBatchId(), lastRecoverable, claim.retry(),
                                    outputs, claim.rows()));
                });
            });
        });
    }

    @WithTransaction
    public Uni<StepStart> initStep(Caller caller, long sid, String correlation) {
        return meters.observe("InitStep", sid, () -> startStep(caller, sid, correlation));
    }

    private Uni<StepStart> startStep(Caller caller, long sid, String correlation) {
        Supplier<ApiException> invalid = () -> INVALID_SUB_PROCESS.exception("Invalid sub-process. sub_pid =" + sid);
        return definitions.findGuardedLockingParent(sid, runs.stepCallRuns(true)).chain(read -> {
            Optional<ProcessDefinition> found = mayExecute(caller, read.map(GuardedWith::guarded), invalid);
            ProcessDefinition step = found.filter(s -> !s.isParent()).orElseThrow(invalid);
            if (step.deleted()) {
                throw INVALID_SUB_PROCESS.exception("This is a deleted sub-process. pid =" + sid);
            }
            long parentId = step.parentProcessId();
            RunRepository.StepCallRuns seen = read.get().alongside();
            // The event is staged from what the definition's read saw, so that the statement that starts the run
            // writes it too; the read may be stale, and then the statement writes none and it is appended here.
            Optional<RunRepository.StagedRunEvent> staged = Optional.ofNullable(seen.parentRunId())
                    .map(parentRun -> events.stageStep(ExecState.RUNNING, parentId, sid, seen.nextId(), parentRun,
                            seen.parentTargetBatchId(), correlation));
            // One statement checks that the parent runs and the step does not, and starts the step only then.
            return runs.startStep(parentId, sid, seen.nextId(), "InitStep", staged).chain(move -> {
                if (!move.parentRunning()) {
                    throw PARENT_NOT_RUNNING.exception("The parent process is not under execution, sub_pid=" + sid);
                }
                if (move.stepRunning()) {
                    throw SUB_PROCESS_ALREADY_RUNNING.exception("This sub process is already under execution ! sub_pid="
                            + sid);
                }
                Run run = move.run().orElseThrow();
                return (move.eventWritten() ? Uni.createFrom().voidItem()
                        : events.step(ExecState.RUNNING, parentId, run, correlation))
                        .replaceWith(new StepStart(run.instanceExecId(), sid));
            });
        });
    }

    /** HaltStep of one step; a comma list is split by the caller, one transaction per step. */
    @WithTransaction
    public Uni<Long> haltStep(Caller caller, long sid, String correlation) {
        return meters.observe("HaltStep", sid, () -> endStep(caller, sid, "Invalid sub-process. sub_pid=" + sid,
                "The parent process is not under execution, sub_pid= " + sid, ExecState.SUCCESS, "HaltStep",
                correlation));
    }

    @WithTransaction
    public Uni<Long> termStep(Caller caller, long sid, String correlation) {
        return meters.observe("TermStep", sid, () -> endStep(caller, sid, "Invalid sub-process.sub_pid=" + sid,
                "The parent process is not under execution,sub_pid=" + sid, ExecState.FAILED, "TermStep", correlation));
    }

    /**
     * HaltStep/TermStep: a live step (103), its parent running (108), the step running (107), then the step's run
     * ends in {@code end}. The texts differ between the two calls only in the reference's spacing.
     */
    private Uni<Long> endStep(Caller caller, long sid, String invalid, String parentNotRunning, ExecState end,
                              String cause, String correlation) {
        Supplier<ApiException> unknown = () -> INVALID_SUB_PROCESS.exception(invalid);
        return definitions.findGuardedLockingParent(sid, runs.stepCallRuns(false)).chain(read -> {
            Optional<ProcessDefinition> found = mayExecute(caller, read.map(GuardedWith::guarded), unknown);
            ProcessDefinition step = found.filter(s -> !s.isParent()).orElseThrow(unknown);
            long parentId = step.parentProcessId();
            RunRepository.StepCallRuns seen = read.get().alongside();
            // Staged as InitStep's event is, from the step's running run as the definition's read saw it.
            Optional<RunRepository.StagedRunEvent> staged = Optional.ofNullable(seen.stepRunId())
                    .map(stepRun -> events.stageStep(end, parentId, sid, stepRun, seen.stepParentRunId(),
                            seen.stepTargetBatchId(), correlation));
            // One statement checks that the parent and the step run, and ends the step's run only then.
            return runs.endStep(parentId, sid, end, cause, staged).chain(move -> {
                if (!move.parentRunning()) {
                    throw PARENT_NOT_RUNNING.exception(parentNotRunning);
                }
                Run ended = move.run().orElseThrow(() ->
                        SUB_PROCESS_NOT_RUNNING.exception("This sub process is not running ! sub_pid=" + sid));
                return move.eventWritten() ? Uni.createFrom().voidItem()
                        : events.step(end, parentId, ended, correlation);
            }).replaceWith(sid);
        });
    }

    @WithTransaction
    public Uni<Run> haltJob(Caller caller, long pid, String batchMarking, String correlation) {
        return meters.observe("HaltJob", pid, () -> endJob(caller, pid, batchMarking, correlation));
    }

    private Uni<Run> endJob(Caller caller, long pid, String batchMarking, String correlation) {
        String marking = BatchMarking.normalise(batchMarking);
        return definitions.lockGuardedWithSteps(pid, runs.jobCallRun()).chain(read -> {
            ProcessDefinitionRepository.GuardedJob job = read.job();
            requireParent(job.parent().map(Guarded::definition), pid);
            List<ProcessDefinition> steps = liveSteps(mayExecute(caller, job.parent(), invalidParent(pid)), job.steps());
            // JobHalted is staged from the running run the parent's read saw, so that the statement that halts the
            // run writes it too; when that read was stale, the statement writes none and it is appended below.
            Optional<RunRepository.StagedRunEvent> staged = Optional.ofNullable(read.alongside().runId())
                    .map(runId -> events.stageJobHalted(pid, runId, read.alongside().targetBatchId(), marking,
                            correlation));
            return runs.endJob(pid, ids(steps), marking, "HaltJob", staged).chain(end -> {
                    // The statement moved the run only if these checks hold; they are applied again here to answer
                    // which one failed.
                    List<Run> running = end.running();
                    List<Run> jobRuns = running.stream().filter(r -> r.processId() == pid).toList();
                    if (jobRuns.size() != 1) {
                        throw PROCESS_NOT_RUNNING.exception("The process is not under execution, pid=" + pid);
                    }
                    if (running.size() > 1) {
                        throw SUB_PROCESS_RUNNING.exception("sub process in running  state");
                    }
                    Run run = jobRuns.get(0);
                    List<Long> stepIds = ids(steps);
                    List<Run> failed = end.latestStepRuns().stream()
                            .filter(r -> stepIds.contains(r.processId()) && r.state() == ExecState.FAILED).toList();
                    if (!failed.isEmpty()) {
                        throw SUB_PROCESS_FAILED.exception("sub process in failed state (sub_pid="
                                + failed.get(0).processId() + ")");
                    }
                    Run halted = end.halted().orElseThrow(() -> CONCURRENT_CHANGE.exception("run "
                            + run.instanceExecId() + " changed concurrently"));
                    return end.eventWritten() ? Uni.createFrom().item(halted)
                            : events.jobHalted(halted, marking, correlation).replaceWith(halted);
                });
        });
    }

    /**
     * TermJob; {@code reason} (code and text, either may be null; null means {@link FailureReason#NONE}) is stored
     * on the failed run and carried by {@code JobFailed}. A text that could not be stored is refused (code 1) before
     * anything is read, like a REST body that fails validation.
     */
    @WithTransaction
    public Uni<Run> termJob(Caller caller, long pid, FailureReason reason, String correlation) {
        return meters.observe("TermJob", pid, () -> failJob(caller, pid, reason, correlation));
    }

    private Uni<Run> failJob(Caller caller, long pid, FailureReason reason, String correlation) {
        FailureReason why = Objects.requireNonNullElse(reason, FailureReason.NONE);
        return Uni.createFrom().item(why).invoke(FailureReason::requireStorable)
                .chain(() -> definitions.lockGuardedWithSteps(pid))
                .invoke(job -> requireParent(job.parent().map(Guarded::definition), pid))
                .map(job -> liveSteps(mayExecute(caller, job.parent(), invalidParent(pid)), job.steps()))
                .chain(steps -> runs.latest(pid).chain(latest -> {
                    Run run = latest.filter(r -> r.state() == ExecState.RUNNING).orElseThrow(() ->
                            PROCESS_NOT_RUNNING.exception("The process is not under execution, pid=" + pid));
                    return runs.anyRunning(ids(steps)).chain(stepsRunning -> {
                        if (stepsRunning) {
                            throw SUB_PROCESS_RUNNING.exception("sub process in running state");
                        }
                        return runs.fail(run, why, "TermJob");
                    }).call(failed -> events.jobFailed(failed, correlation));
                }));
    }

    /**
     * Terminates what a runner that died left running under {@code pid}: every step's run, then the job's, so that
     * the next InitJob resumes from the last recoverable step instead of being refused as already running. The job's
     * run records that its runner stopped, without a code: no command of it reported an exit.
     */
    public Uni<Void> terminateOrphan(long pid, String deadRunner, String correlation) {
        FailureReason reason = FailureReason.truncated(null, "the runner that ran it (" + deadRunner
                + ") stopped; its lease expired");
        return definitions.tree(pid).chain(tree -> InOrder.each(
                tree.map(ProcessDefinitionRepository.Tree::steps).orElse(List.of()),
                step -> runs.running(step.processId()).chain(running -> running.isEmpty()
                        ? Uni.createFrom().voidItem()
                        : termStep(RUNNER, step.processId(), correlation).replaceWithVoid())))
                .chain(() -> runs.running(pid)).chain(running -> running.isEmpty()
                ? Uni.createFrom().voidItem()
                : termJob(RUNNER, pid, reason, correlation).replaceWithVoid().onFailure(ApiException.class).recoverWithItem(e -> {
                    LOG.warnf("could not terminate the orphaned run of %d: %s", pid, e.getMessage());
                    return null;
                }));
    }

    /**
     * Checked once the process's definition is in hand (and, for a parent, locked), on the permissions read with it.
     * A caller who may not read the process's application is answered {@code unknown}, the call's own code for a
     * process that is not there, so the refusal tells nothing of it; a process this service does not know passes, so
     * the call's own checks answer with their codes.
     */
    private Optional<ProcessDefinition> mayExecute(Caller caller, Optional<Guarded> process,
                                                   Supplier<ApiException> unknown) {
        process.ifPresent(p -> permission.requireGiven(caller, p.definition().processId(), p.access(),
                Permission.EXECUTE, unknown));
        return process.map(Guarded::definition);
    }

    private static Supplier<ApiException> invalidParent(long pid) {
        return () -> INVALID_PARENT_PROCESS.exception("Invalid parent-process. pid=" + pid);
    }

    private static void requireParent(Optional<ProcessDefinition> parent, long pid) {
        if (parent.isEmpty() || !parent.get().isParent() || parent.get().deleted()) {
            throw invalidParent(pid).get();
        }
    }

    /** The steps read with the parent, when the parent is a live parent; none otherwise. */
    private static List<ProcessDefinition> liveSteps(Optional<ProcessDefinition> parent, List<ProcessDefinition> steps) {
        if (parent.isEmpty() || !parent.get().isParent() || parent.get().deleted()) {
            return List.of();
        }
        return steps;
    }

    /** The parent's id followed by its steps' ids: what one "is anything of this job running" read looks at. */
    private static List<Long> withParent(long pid, List<ProcessDefinition> steps) {
        List<Long> ids = new ArrayList<>(steps.size() + 1);
        ids.add(pid);
        ids.addAll(ids(steps));
        return ids;
    }

    private static List<Long> ids(List<ProcessDefinition> steps) {
        return steps.stream().map(ProcessDefinition::processId).toList();
    }
}
