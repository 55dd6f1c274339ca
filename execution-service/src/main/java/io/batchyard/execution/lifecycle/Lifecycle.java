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

import io.batchyard.execution.recovery.LastRecoverableStep;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitions;
import io.batchyard.schemas.BatchMarking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;

/**
 * The six lifecycle calls (spec 3.1-3.6), each on the caller's transaction. Every call first locks its parent's
 * read-model row, so calls on one parent are serialised; checks run in the spec's order and the first failure wins,
 * with the public code and the reference text. A rejected call changes nothing.
 */
@ApplicationScoped
public class Lifecycle {

    /** InitJob's answer: the run, its target batch, where to resume, and the output keys. */
    public record JobStart(long instanceExecId, long targetBatchId, Long lastRecoverableSpId, boolean retry,
                           Map<String, String> outputs) {
    }

    /** InitStep's answer (the reference emitted 0 for the id). */
    public record StepStart(long subInstanceExecId, long subProcessId) {
    }

    @Inject
    ProcessDefinitions definitions;

    @Inject
    Runs runs;

    @Inject
    QueueClient queue;

    @Inject
    LifecycleEvents events;

    public JobStart initJob(Handle tx, long pid, Integer maxBatch, String correlation) {
        Optional<ProcessDefinition> parent = definitions.lock(tx, pid);
        List<ProcessDefinition> steps = liveSteps(tx, parent);
        if (maxBatch == null && steps.stream().anyMatch(s -> s.isEnqueued() && !s.hasCutPattern())) {
            throw MAX_BATCH_NULL.exception("max_batch cannot be null");
        }
        if (parent.isEmpty() || !parent.get().isParent() || parent.get().deleted() || steps.isEmpty()) {
            throw INVALID_PARENT_PROCESS.exception("Invalid parent-process. pid=" + pid);
        }
        if (!runs.running(tx, pid).isEmpty()) {
            throw PARENT_ALREADY_RUNNING.exception("Parent Process is already running. pid=" + pid);
        }
        if (runs.anyRunning(tx, ids(steps))) {
            throw SUB_PROCESS_RUNNING.exception("Sub-processes already running! Cannot start this parent process" + pid);
        }
        Optional<Run> latest = runs.latest(tx, pid);
        boolean lastFailed = latest.map(r -> r.state() == ExecState.FAILED).orElse(false);
        // The queue archives the last successful run's rows before claiming, in case its JobHalted is still in flight.
        Long completedTarget = latest.filter(r -> r.state() == ExecState.SUCCESS).map(Run::targetBatchId).orElse(null);
        Long lastRecoverable = LastRecoverableStep.of(lastFailed, runs.stepRunsSinceLastSuccess(tx, pid),
                steps.stream().collect(Collectors.toMap(ProcessDefinition::processId, Function.identity()))).orElse(null);
        long ie = runs.nextId(tx);
        QueueClient.Claim claim = queue.claim(pid, ie, maxBatch, completedTarget);
        runs.start(tx, ie, pid, null, claim.targetBatchId(), claim.retry(), lastRecoverable, "InitJob");
        Run run = runs.find(tx, ie).orElseThrow();
        Map<String, String> outputs = InitJobOutput.of(ie, claim.targetBatchId(), lastRecoverable, claim.rows());
        events.jobStarted(tx, run, outputs.get("target-batch-marking"), correlation);
        return new JobStart(ie, claim.targetBatchId(), lastRecoverable, claim.retry(), outputs);
    }

    public StepStart initStep(Handle tx, long sid, String correlation) {
        ProcessDefinition step = definitions.find(tx, sid).filter(s -> !s.isParent())
                .orElseThrow(() -> INVALID_SUB_PROCESS.exception("Invalid sub-process. sub_pid =" + sid));
        if (step.deleted()) {
            throw INVALID_SUB_PROCESS.exception("This is a deleted sub-process. pid =" + sid);
        }
        definitions.lock(tx, step.parentProcessId());
        Run parentRun = runs.running(tx, step.parentProcessId()).stream().findFirst()
                .orElseThrow(() -> PARENT_NOT_RUNNING.exception("The parent process is not under execution, sub_pid=" + sid));
        if (!runs.running(tx, sid).isEmpty()) {
            throw SUB_PROCESS_ALREADY_RUNNING.exception("This sub process is already under execution ! sub_pid=" + sid);
        }
        long id = runs.nextId(tx);
        runs.start(tx, id, sid, parentRun.instanceExecId(), parentRun.targetBatchId(), false, null, "InitStep");
        events.stepStarted(tx, step.parentProcessId(), runs.find(tx, id).orElseThrow(), correlation);
        return new StepStart(id, sid);
    }

    /** HaltStep of one step; a comma list is split by the caller, one transaction per step. */
    public long haltStep(Handle tx, long sid, String correlation) {
        return endStep(tx, sid, "Invalid sub-process. sub_pid=" + sid,
                "The parent process is not under execution, sub_pid= " + sid, ExecState.SUCCESS, "HaltStep",
                correlation);
    }

    public long termStep(Handle tx, long sid, String correlation) {
        return endStep(tx, sid, "Invalid sub-process.sub_pid=" + sid,
                "The parent process is not under execution,sub_pid=" + sid, ExecState.FAILED, "TermStep", correlation);
    }

    /**
     * HaltStep/TermStep: a live step (103), its parent running (108), the step running (107), then the step's run
     * ends in {@code end}. The texts differ between the two calls only in the reference's spacing.
     */
    private long endStep(Handle tx, long sid, String invalid, String parentNotRunning, ExecState end, String cause,
                         String correlation) {
        ProcessDefinition step = definitions.find(tx, sid).filter(s -> !s.isParent())
                .orElseThrow(() -> INVALID_SUB_PROCESS.exception(invalid));
        definitions.lock(tx, step.parentProcessId());
        if (runs.running(tx, step.parentProcessId()).isEmpty()) {
            throw PARENT_NOT_RUNNING.exception(parentNotRunning);
        }
        Run run = runs.running(tx, sid).stream().findFirst()
                .orElseThrow(() -> SUB_PROCESS_NOT_RUNNING.exception("This sub process is not running ! sub_pid=" + sid));
        runs.transition(tx, run, end, null, cause);
        Run ended = runs.find(tx, run.instanceExecId()).orElseThrow();
        if (end == ExecState.SUCCESS) {
            events.stepHalted(tx, step.parentProcessId(), ended, correlation);
        } else {
            events.stepFailed(tx, step.parentProcessId(), ended, correlation);
        }
        return sid;
    }

    public Run haltJob(Handle tx, long pid, String batchMarking, String correlation) {
        String marking = BatchMarking.normalise(batchMarking);
        Optional<ProcessDefinition> parent = definitions.lock(tx, pid);
        requireParent(parent, pid);
        List<ProcessDefinition> steps = liveSteps(tx, parent);
        List<Run> running = runs.running(tx, pid);
        if (running.size() != 1) {
            throw PROCESS_NOT_RUNNING.exception("The process is not under execution, pid=" + pid);
        }
        if (runs.anyRunning(tx, ids(steps))) {
            throw SUB_PROCESS_RUNNING.exception("sub process in running  state");
        }
        Run run = running.get(0);
        List<Long> stepIds = ids(steps);
        List<Run> failed = runs.latestStepRuns(tx, run.instanceExecId()).stream()
                .filter(r -> stepIds.contains(r.processId()) && r.state() == ExecState.FAILED).toList();
        if (!failed.isEmpty()) {
            throw SUB_PROCESS_FAILED.exception("sub process in failed state (sub_pid=" + failed.get(0).processId() + ")");
        }
        runs.transition(tx, run, ExecState.SUCCESS, marking, "HaltJob");
        Run halted = runs.find(tx, run.instanceExecId()).orElseThrow();
        events.jobHalted(tx, halted, marking, correlation);
        return halted;
    }

    public Run termJob(Handle tx, long pid, String correlation) {
        Optional<ProcessDefinition> parent = definitions.lock(tx, pid);
        requireParent(parent, pid);
        Run run = runs.latest(tx, pid).filter(r -> r.state() == ExecState.RUNNING)
                .orElseThrow(() -> PROCESS_NOT_RUNNING.exception("The process is not under execution, pid=" + pid));
        if (runs.anyRunning(tx, ids(liveSteps(tx, parent)))) {
            throw SUB_PROCESS_RUNNING.exception("sub process in running state");
        }
        runs.transition(tx, run, ExecState.FAILED, null, "TermJob");
        Run failed = runs.find(tx, run.instanceExecId()).orElseThrow();
        events.jobFailed(tx, failed, correlation);
        return failed;
    }

    private static void requireParent(Optional<ProcessDefinition> parent, long pid) {
        if (parent.isEmpty() || !parent.get().isParent() || parent.get().deleted()) {
            throw INVALID_PARENT_PROCESS.exception("Invalid parent-process. pid=" + pid);
        }
    }

    private List<ProcessDefinition> liveSteps(Handle tx, Optional<ProcessDefinition> parent) {
        if (parent.isEmpty() || !parent.get().isParent() || parent.get().deleted()) {
            return List.of();
        }
        return definitions.tree(tx, parent.get().processId()).map(ProcessDefinitions.Tree::steps).orElse(List.of());
    }

    private static List<Long> ids(List<ProcessDefinition> steps) {
        return steps.stream().map(ProcessDefinition::processId).toList();
    }
}
