package io.batchyard.execution.runner;

import io.batchyard.api.ApiException;
import io.batchyard.persistence.Blocking;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.execution.bucket.ParamFormat;
import io.batchyard.execution.runs.FailureReason;
import io.batchyard.execution.runs.RunLifecycle;
import io.batchyard.execution.recovery.LastRecoverableStep;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.batchyard.readmodel.ProcessDefinitionService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * One run of a stand-alone parent for its claimed buckets, through the same lifecycle calls a workflow engine makes:
 * InitJob, then per step InitStep → command → HaltStep or TermStep, steps starting as soon as all their predecessors
 * are done (fork/join), then HaltJob or TermJob. The chain OnInit → steps → OnSuccess/OnError hands each script the
 * previous one's output (PIPEINOUT/PIPEERROR/PIPEFILE). A run blocks while its commands run, so it lives on the
 * runner's threads and waits there for each lifecycle call's transaction ({@link Blocking#await}).
 */
@ApplicationScoped
public class WorkflowExecution {

    private static final Logger LOG = Logger.getLogger(WorkflowExecution.class);
    private static final Duration HOOK_TIMEOUT = Duration.ofMinutes(10);
    /** The status of a refusal that says a service InitJob needs did not answer, not that the run may not start. */
    private static final int SERVICE_UNAVAILABLE = 503;

    /** How a run ended. */
    public record Outcome(long processId, List<String> buckets, Long instanceExecId, State bucketState, String message,
                          Set<Long> skippedSteps) {
    }

    /**
     * A step's end: its output feeds its successors; a failure carries the message (run output, bucket) and the
     * reason TermJob records on the run (with the exit code when a command's exit explains the failure).
     */
    record StepResult(long stepId, boolean ok, String stdout, String stderr, String message, FailureReason reason) {

        /** A failure no command's exit explains (a refusal, a bad definition): the run records the message alone. */
        StepResult(long stepId, boolean ok, String stdout, String stderr, String message) {
            this(stepId, ok, stdout, stderr, message, ok ? FailureReason.NONE : FailureReason.truncated(null, message));
        }
    }

    private final RunLifecycle lifecycle;
    private final RunnerService runner;
    private final ProcessDefinitionService definitions;
    private final RunOutputService log;
    private final ScriptRunner scripts;
    private final StepLaunchers launchers;
    private final RunnerDrain drain;
    private final Instance<GroupJobs> groups;
    private final Instance<RunInputs> inputs;

    public WorkflowExecution(RunLifecycle lifecycle, RunnerService runner, ProcessDefinitionService definitions,
                             RunOutputService log, ScriptRunner scripts, StepLaunchers launchers, RunnerDrain drain,
                             Instance<GroupJobs> groups, Instance<RunInputs> inputs) {
        this.inputs = inputs;
        this.drain = drain;
        this.groups = groups;
        this.lifecycle = lifecycle;
        this.runner = runner;
        this.definitions = definitions;
        this.log = log;
        this.scripts = scripts;
        this.launchers = launchers;
    }

    /** Which feature decided a run of the buckets, and what it attributed (NONE, by nobody, when none did). */
    private record Decided(RunInputs by, RunInputs.Attribution attribution) {
    }

    /** Asks the features that decide runs, live work first; the first with a decision for these buckets has it. */
    private Decided decide(long pid, List<String> buckets) {
        List<RunInputs> deciders = inputs.stream().sorted(Comparator.comparingInt(RunInputs::rank)).toList();
        for (RunInputs decider : deciders) {
            RunInputs.Attribution attribution = Blocking.await(() -> decider.attribute(pid, buckets));
            if (!attribution.empty()) {
                return new Decided(decider, attribution);
            }
        }
        return new Decided(null, RunInputs.Attribution.NONE);
    }

    public Outcome run(RunnerJob job, List<String> buckets, String correlation) {
        long pid = job.processId();
        // A run a trigger decided claims exactly the batches attributed to it, whatever the max batch. They are taken
        // first, so that a run that cannot even start still counts as the start of those decisions (a retry of its
        // bucket takes them again) instead of leaving them pending for the next run end to start once more. Only a
        // start refused because a service InitJob needs is unavailable gives them back (notYetStarted).
        Decided decided = decide(pid, buckets);
        RunInputs.Attribution attribution = decided.attribution();
        ProcessDefinitionRepository.Tree tree = Blocking.await(() -> definitions.tree(pid)).orElse(null);
        StepGraph graph;
        List<String> bucketArgs;
        int maxBatch;
        try {
            if (tree == null) {
                throw new IllegalArgumentException("process " + pid + " is no longer in the registry");
            }
            graph = StepScripts.checked(tree, scripts);
            // A refused context file (433/434) stops the run before InitJob as a refused script does: the file is
            // never read.
            if (hasContextFile(job)) {
                scripts.files().check(job.context().file());
            }
            bucketArgs = bucketArguments(job, buckets);
            maxBatch = MaxBatch.of(tree.parent(), job);
        } catch (IllegalArgumentException e) {
            return notStarted(job, buckets, e.getMessage());
        }
        RunLifecycle.Started start;
        try {
            start = Blocking.await(() -> lifecycle.initJob(pid, maxBatch,
                    attribution.empty() ? null : attribution.sourceBatchIds(), attribution.backfillId(), correlation));
        } catch (ApiException e) {
            if (e.status() == SERVICE_UNAVAILABLE) {
                return notYetStarted(job, buckets, decided, "InitJob refused: " + e.getMessage());
            }
            return notStarted(job, buckets, "InitJob refused: " + e.getMessage());
        }
        long ie = start.instanceExecId();
        Blocking.await(() -> runner.attachRun(pid, buckets, ie));
        if (!attribution.empty()) {
            Blocking.await(() -> decided.by().started(pid, attribution, ie));
        }
        RunOutputWriter jobLog = log.writer(ie, pid);
        jobLog.line("runner", "run " + ie + " of process " + pid + " for bucket(s) " + buckets + ", target batch "
                + start.targetBatchId() + (start.retry() ? " (retry)" : ""));
        jobLog.flush();
        Map<String, String> env = baseEnv(pid, ie, buckets, start);
        PipeEnv.Previous previous = PipeEnv.Previous.NONE;
        StepResult failure = null;
        Set<Long> skipped = Set.of();
        try {
            ContextArgs context = context(job, env);
            if (job.hooks().onInit() != null) {
                CommandResult r = hook(job.hooks().onInit(), pid, env, previous, bucketArgs, jobLog);
                previous = new PipeEnv.Previous(r.stdout(), r.stderr());
                if (!r.succeeded()) {
                    failure = new StepResult(pid, false, r.stdout(), r.stderr(), "OnInit hook " + r.describe(),
                            reasonOf("OnInit hook (" + job.hooks().onInit() + ")", r));
                }
            }
            if (failure == null) {
                skipped = ResumePlan.skipped(graph, start.lastRecoverableSpId(), succeededSinceLastSuccess(pid));
                if (!skipped.isEmpty()) {
                    jobLog.line("runner", "resuming at step " + start.lastRecoverableSpId() + "; skipping completed steps "
                            + skipped.stream().sorted().toList());
                }
                // PWM groups: steps with settings of their own run as independent jobs (own buckets, dependencies, hooks)
                Map<Long, JobSettings> jobs = groups.isResolvable() ? groups.get().jobsOf(pid) : Map.of();
                StepOutputs outputs = runGraph(job, graph, skipped, new StepArgs(context, bucketArgs, buckets, jobs), env,
                        previous);
                failure = outputs.failure;
                previous = outputs.last;
            }
        } catch (IllegalArgumentException e) {
            failure = new StepResult(pid, false, "", e.getMessage(), e.getMessage());
        }
        // a run left to another runner during shutdown ends here: that runner terminates and resumes it
        drain.checkNotAbandoned(pid);
        Outcome outcome = failure == null ? complete(job, buckets, ie, env, previous, jobLog, skipped)
                : fail(job, buckets, ie, env, failure, jobLog, skipped);
        jobLog.flush();
        return outcome;
    }

    private Outcome complete(RunnerJob job, List<String> buckets, long ie, Map<String, String> env,
                             PipeEnv.Previous previous, RunOutputWriter jobLog, Set<Long> skipped) {
        long pid = job.processId();
        try {
            Blocking.await(() -> runner.complete(pid, buckets, ie));
        } catch (ApiException e) {
            return fail(job, buckets, ie, env, new StepResult(pid, false, "", e.getMessage(), "HaltJob refused: "
                    + e.getMessage()), jobLog, skipped);
        }
        jobLog.line("runner", "run " + ie + " complete");
        if (job.hooks().onSuccess() != null) {
            // OnSuccess runs after COMPLETE is recorded; its failure is logged, the bucket stays COMPLETE.
            CommandResult r = hook(job.hooks().onSuccess(), pid, env, previous, List.of(), jobLog);
            if (!r.succeeded()) {
                jobLog.line("runner", "OnSuccess hook " + r.describe() + " (the run stays complete)");
            }
        }
        return new Outcome(pid, buckets, ie, State.COMPLETE, null, skipped);
    }

    private Outcome fail(RunnerJob job, List<String> buckets, long ie, Map<String, String> env, StepResult failure,
                         RunOutputWriter jobLog, Set<Long> skipped) {
        long pid = job.processId();
        jobLog.line("runner", "run " + ie + " failed: " + failure.message());
        // Already ended (e.g. terminated by an operator): the bucket still records the failure.
        Blocking.await(() -> runner.fail(pid, buckets, ie, failure.reason(), truncate(failure.message())))
                .ifPresent(refusal -> jobLog.line("runner", "TermJob: " + refusal));
        if (job.hooks().onError() != null) {
            hook(job.hooks().onError(), pid, env, new PipeEnv.Previous(failure.stdout(), failure.stderr()), List.of(), jobLog);
        }
        return new Outcome(pid, buckets, ie, State.FAILED, failure.message(), skipped);
    }

    /**
     * InitJob was refused because a service it needs did not answer (queue-service down, its breaker open): nothing
     * about the buckets failed, so they wait again (INIT, no attempt counted) and the trigger runs they took are
     * PENDING again with their batches; the next tick starts them once the service answers. No OnError hook: nothing
     * failed yet.
     */
    private Outcome notYetStarted(RunnerJob job, List<String> buckets, Decided decided, String reason) {
        long pid = job.processId();
        LOG.warnf("process %d, buckets %s not started yet, left to the next tick: %s", pid, buckets, reason);
        Blocking.await(() -> runner.giveBack(pid, buckets, truncate(reason)));
        if (!decided.attribution().empty()) {
            Blocking.await(() -> decided.by().notStarted(pid, decided.attribution()));
        }
        return new Outcome(pid, buckets, null, State.INIT, reason, Set.of());
    }

    /** The bucket could not even start a run (bad definition, InitJob refused): FAILED with the reason. */
    private Outcome notStarted(RunnerJob job, List<String> buckets, String reason) {
        LOG.warnf("process %d, buckets %s not started: %s", job.processId(), buckets, reason);
        // No run was started, so there is no TermJob to give a reason to; the bucket keeps it.
        Blocking.await(() -> runner.fail(job.processId(), buckets, null, FailureReason.NONE, truncate(reason)));
        if (job.hooks().onError() != null) {
            scripts.run(job.hooks().onError(), List.of(), PipeEnv.of(job.processId(), job.hooks().onError(),
                    new PipeEnv.Previous("", reason), scripts.spillThreshold(), spillDir()), HOOK_TIMEOUT,
                    (s, l) -> LOG.infof("[OnError %d] %s", job.processId(), l));
        }
        return new Outcome(job.processId(), buckets, null, State.FAILED, reason, Set.of());
    }

    private record StepOutputs(StepResult failure, PipeEnv.Previous last) {
    }

    /** What a run's steps are given: context options, the run's buckets and their arguments, the group's jobs. */
    private record StepArgs(ContextArgs context, List<String> bucketArgs, List<String> buckets,
                            Map<Long, JobSettings> jobs) {

        List<String> args(List<String> bucketArguments) {
            List<String> all = new ArrayList<>(context.words());
            all.addAll(bucketArguments);
            return all;
        }

        /** The same as the run output shows them: the context as defined, its file's and script's words unread. */
        List<String> shown(List<String> bucketArguments) {
            List<String> all = new ArrayList<>(context.shown());
            all.addAll(bucketArguments);
            return all;
        }
    }

    /**
     * The context options: the words a step gets, and how its logged command line shows them (the value as written,
     * {@code ${context.file}} and {@code ${context.script}} for the words read from the file and printed by the
     * script).
     */
    private record ContextArgs(List<String> words, List<String> shown) {
    }

    /** Launches ready steps as predecessors finish, at most {@code stepConcurrency} at a time; stops launching on a failure. */
    private StepOutputs runGraph(RunnerJob job, StepGraph graph, Set<Long> skipped, StepArgs args,
                                 Map<String, String> env, PipeEnv.Previous initial) {
        ExecutorService pool = Executors.newFixedThreadPool(job.stepConcurrency(), r -> {
            Thread t = new Thread(r, "batchyard-step-" + job.processId());
            t.setDaemon(true);
            return t;
        });
        CompletionService<StepResult> completion = new ExecutorCompletionService<>(pool);
        Map<Long, StepResult> results = new HashMap<>();
        Set<Long> done = new HashSet<>(skipped);
        Set<Long> started = new HashSet<>(skipped);
        StepResult failure = null;
        StepResult last = null;
        int inFlight = 0;
        try {
            while (true) {
                if (failure == null) {
                    for (long id : graph.ready(done, started)) {
                        started.add(id);
                        PipeEnv.Previous previous = previousOf(graph, id, results, initial);
                        completion.submit(() -> runStep(job, graph.step(id), args, env, previous));
                        inFlight++;
                    }
                }
                if (inFlight == 0) {
                    break;
                }
                StepResult r = completion.take().get();
                inFlight--;
                results.put(r.stepId(), r);
                last = r;
                if (r.ok()) {
                    done.add(r.stepId());
                } else if (failure == null) {
                    failure = r;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = new StepResult(job.processId(), false, "", "interrupted", "runner interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RunnerDrain.Abandoned abandoned) {
                throw abandoned;
            }
            failure = new StepResult(job.processId(), false, "", String.valueOf(e.getCause()), "runner error: " + e.getCause());
        } finally {
            pool.shutdownNow();
        }
        return new StepOutputs(failure, last == null ? initial : new PipeEnv.Previous(last.stdout(), last.stderr()));
    }

    /** The same parent, step, buckets and loop value: the same work, whichever run of the parent does it. */
    static String workKey(long processId, long stepId, List<String> buckets, String loopValue) {
        return processId + "/" + stepId + "/" + String.join(",", buckets) + (loopValue == null ? "" : "/" + loopValue);
    }

    /** A step's input: its predecessors' output in id order (a join sees all branches), or the chain's start. */
    private static PipeEnv.Previous previousOf(StepGraph graph, long stepId, Map<Long, StepResult> results,
                                               PipeEnv.Previous initial) {
        Set<Long> preds = graph.predecessors(stepId);
        if (preds.isEmpty()) {
            return initial;
        }
        List<StepResult> inputs = preds.stream().map(results::get).filter(r -> r != null).toList();
        return new PipeEnv.Previous(inputs.stream().map(StepResult::stdout).collect(Collectors.joining()),
                inputs.stream().map(StepResult::stderr).collect(Collectors.joining()));
    }

    private StepResult runStep(RunnerJob job, ProcessDefinition step, StepArgs runArgs, Map<String, String> env,
                               PipeEnv.Previous previous) {
        long sid = step.processId();
        drain.checkNotAbandoned(job.processId());
        long ie = Long.parseLong(env.get("BATCHYARD_INSTANCE_EXEC_ID"));
        JobSettings settings = runArgs.jobs().get(sid);
        GroupJobs.JobRun jobRun = settings == null ? null : groups.get().claim(job, settings, runArgs.buckets());
        if (jobRun != null && !jobRun.run()) {
            // a skipped job counts as done: the group's other jobs are independent of it
            RunOutputWriter w = log.writer(ie, sid);
            w.line("runner", "job " + sid + " skipped: " + jobRun.skipReason());
            w.flush();
            return new StepResult(sid, true, "", "", null);
        }
        List<String> bucketArgs = jobRun == null ? runArgs.bucketArgs() : jobRun.bucketArguments();
        List<String> args = runArgs.args(bucketArgs);
        long started;
        try {
            started = Blocking.await(() -> lifecycle.initStep(sid));
        } catch (ApiException e) {
            return new StepResult(sid, false, "", e.getMessage(), "InitStep of " + sid + " refused: " + e.getMessage());
        }
        RunOutputWriter stepLog = log.writer(started, sid);
        StepCommand command = StepCommand.of(step);
        Map<String, String> stepEnv = new LinkedHashMap<>(env);
        stepEnv.put("BATCHYARD_PROCESS_ID", Long.toString(sid));
        stepEnv.put("BATCHYARD_STEP_INSTANCE_EXEC_ID", Long.toString(started));
        if (jobRun != null) {
            stepEnv.put("BATCHYARD_BUCKET", String.join(" ", jobRun.buckets()));
        }
        Duration timeout = Duration.ofSeconds(command.timeoutSeconds() != null ? command.timeoutSeconds() : job.timeoutSeconds());
        List<String> stepArgs = new ArrayList<>(command.params());
        stepArgs.addAll(args);
        List<String> shownArgs = new ArrayList<>(command.params());
        shownArgs.addAll(runArgs.shown(bucketArgs));
        StringBuilder out = new StringBuilder();
        StringBuilder err = new StringBuilder();
        CommandResult result = null;
        RunnerJob.Hooks jobHooks = jobRun == null ? RunnerJob.Hooks.NONE : jobRun.hooks();
        if (jobHooks.onInit() != null) {
            CommandResult init = hook(jobHooks.onInit(), job.processId(), stepEnv, previous, jobRun.bucketArguments(), stepLog);
            if (!init.succeeded()) {
                result = init;
                err.append(init.stderr());
            }
        }
        List<String> iterations = result != null ? List.of() : loopValues(command, stepEnv);
        if (result != null) {
            stepLog.line("runner", "OnInit hook of job " + sid + " " + result.describe() + ": the job does not run");
        } else if (iterations == null) {
            result = CommandResult.notStarted("loop script " + command.loopScript() + " failed or printed nothing");
            stepLog.line("runner", result.stderr());
        } else if (iterations.isEmpty() && command.loops()) {
            stepLog.line("runner", "empty loop: nothing to run");
        } else {
            for (String value : iterations.isEmpty() ? java.util.Collections.<String>singletonList(null) : iterations) {
                Map<String, String> e = new LinkedHashMap<>(stepEnv);
                e.putAll(PipeEnv.of(job.processId(), command.script(), previous, scripts.spillThreshold(), spillDir()));
                List<String> a = new ArrayList<>(stepArgs);
                List<String> shown = new ArrayList<>(shownArgs);
                if (value != null) {
                    e.put("PIPELOOPVAR", value);
                    a.add(value);
                    shown.add(value);
                }
                List<String> work = jobRun == null ? runArgs.buckets() : jobRun.buckets();
                result = launchers.run(new StepLaunch(job.processId(), sid, started, step, command.script(), a, shown,
                        e, timeout, workKey(job.processId(), sid, work, value)), stepLog);
                deleteSpill(e);
                out.append(result.stdout());
                err.append(result.stderr());
                if (!result.succeeded()) {
                    break;
                }
            }
        }
        boolean ok = result == null || result.succeeded();
        stepLog.flush();
        // stopped because this runner gave the run up, not because the step failed: record nothing
        drain.checkNotAbandoned(job.processId());
        try {
            Blocking.await(() -> lifecycle.endStep(sid, ok));
        } catch (ApiException e) {
            StepResult refused = new StepResult(sid, false, out.toString(), err.toString(), "step " + sid + ": " + e.getMessage());
            endJob(jobRun, ie, refused, previous, job.processId(), stepEnv, stepLog);
            return refused;
        }
        StepResult r = new StepResult(sid, ok, out.toString(), err.toString(),
                ok ? null : "step " + sid + " (" + step.name() + ") failed: " + result.describe(),
                ok ? FailureReason.NONE : reasonOf("step " + sid + " (" + command.script() + ")", result));
        endJob(jobRun, ie, r, previous, job.processId(), stepEnv, stepLog);
        return r;
    }

    /**
     * A group job's end on its own ledger, then its hooks: OnSuccess after COMPLETE is recorded (its failure changes
     * nothing), OnError after FAILED with the job's stderr as PIPEERROR.
     */
    private void endJob(GroupJobs.JobRun jobRun, long ie, StepResult r, PipeEnv.Previous previous, long pid,
                        Map<String, String> env, RunOutputWriter stepLog) {
        if (jobRun == null) {
            return;
        }
        groups.get().finish(jobRun, ie, r.ok(), truncate(r.message()));
        if (r.ok() && jobRun.hooks().onSuccess() != null) {
            CommandResult h = hook(jobRun.hooks().onSuccess(), pid, env, new PipeEnv.Previous(r.stdout(), r.stderr()),
                    List.of(), stepLog);
            if (!h.succeeded()) {
                stepLog.line("runner", "OnSuccess hook " + h.describe() + " (the job stays complete)");
                stepLog.flush();
            }
        } else if (!r.ok() && jobRun.hooks().onError() != null) {
            hook(jobRun.hooks().onError(), pid, env, new PipeEnv.Previous(r.stdout(), r.stderr()), List.of(), stepLog);
        }
    }

    /**
     * What the run records about a command that failed: its exit code when it ran and exited; otherwise no code (a
     * killed or never started command has none of its own) and why, e.g. the script was not found.
     */
    static FailureReason reasonOf(String what, CommandResult r) {
        if (r.exited()) {
            return FailureReason.truncated(r.exitCode(), what + " exited with code " + r.exitCode());
        }
        if (r.timedOut()) {
            return FailureReason.truncated(null, what + " was " + r.describe());
        }
        if (r.started()) {
            return FailureReason.truncated(null, what + " " + r.describe());
        }
        return FailureReason.truncated(null, what + " could not be started: " + r.stderr().strip());
    }

    /** Loop values of a step, an empty list for no loop, or null when the loop script failed. */
    private List<String> loopValues(StepCommand command, Map<String, String> env) {
        if (command.loopValues() != null) {
            return command.loopValues();
        }
        if (command.loopScript() == null) {
            return List.of();
        }
        return scripts.valueOf(command.loopScript(), List.of(), env, HOOK_TIMEOUT).map(StepCommand::loopValues).orElse(null);
    }

    private CommandResult hook(String script, long pid, Map<String, String> env, PipeEnv.Previous previous,
                               List<String> args, RunOutputWriter jobLog) {
        Map<String, String> e = new LinkedHashMap<>(env);
        e.putAll(PipeEnv.of(pid, script, previous, scripts.spillThreshold(), spillDir()));
        CommandResult r = scripts.run(script, args, e, HOOK_TIMEOUT, jobLog);
        deleteSpill(e);
        jobLog.flush();
        return r;
    }

    /**
     * Context options: value, then the file's contents, then the script's stdout, as words. The file is read only
     * from inside the work directory ({@link JobFiles}); a refused one fails the run with its problem code.
     */
    private ContextArgs context(RunnerJob job, Map<String, String> env) {
        List<String> words = new ArrayList<>(ScriptRunner.words(job.context().value()));
        List<String> shown = new ArrayList<>(words);
        if (hasContextFile(job)) {
            words.addAll(ScriptRunner.words(scripts.files().read(job.context().file())));
            shown.add("${context.file}");
        }
        if (job.context().script() != null) {
            String value = scripts.valueOf(job.context().script(), List.of(), env, HOOK_TIMEOUT).orElseThrow(() ->
                    new IllegalArgumentException("context script " + job.context().script() + " failed"));
            words.addAll(ScriptRunner.words(value));
            shown.add("${context.script}");
        }
        return new ContextArgs(words, shown);
    }

    private static boolean hasContextFile(RunnerJob job) {
        return job.context().file() != null && !job.context().file().isBlank();
    }

    /** Bucket arguments in ascending bucket order; a registered key's param format shapes them. */
    private List<String> bucketArguments(RunnerJob job, List<String> buckets) {
        Optional<BucketKey> key = job.bucket() == null ? Optional.empty()
                : Blocking.await(() -> runner.bucketKey(job.bucket()));
        List<String> args = new ArrayList<>();
        for (String b : buckets.stream().sorted().toList()) {
            args.addAll(ParamFormat.arguments(b, key.map(BucketKey::paramFormat).orElse(null)));
        }
        return args;
    }

    private Map<String, String> baseEnv(long pid, long ie, List<String> buckets, RunLifecycle.Started start) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("BATCHYARD_PARENT_PROCESS_ID", Long.toString(pid));
        env.put("BATCHYARD_INSTANCE_EXEC_ID", Long.toString(ie));
        env.put("BATCHYARD_TARGET_BATCH_ID", Long.toString(start.targetBatchId()));
        env.put("BATCHYARD_BUCKET", String.join(" ", buckets));
        start.outputs().forEach((k, v) -> env.put("BATCHYARD_OUT_" + k.toUpperCase().replaceAll("[^A-Z0-9]", "_"),
                v == null ? "" : v));
        return env;
    }

    /** Steps whose latest run since the parent's last success succeeded. */
    private Set<Long> succeededSinceLastSuccess(long pid) {
        Map<Long, LastRecoverableStep.StepRun> latest = new HashMap<>();
        Blocking.await(() -> runner.stepRunsSinceLastSuccess(pid)).stream()
                .sorted(Comparator.comparingLong(LastRecoverableStep.StepRun::instanceExecId))
                .forEach(r -> latest.put(r.stepId(), r));
        return latest.values().stream().filter(LastRecoverableStep.StepRun::succeeded)
                .map(LastRecoverableStep.StepRun::stepId).collect(Collectors.toSet());
    }

    /** PIPEFILE spills live in the temp directory, one file per command, deleted when the command ends. */
    private static Path spillDir() {
        return Path.of(System.getProperty("java.io.tmpdir"), "batchyard-pipe");
    }

    private static void deleteSpill(Map<String, String> env) {
        String file = env.get("PIPEFILE");
        if (file != null && !file.isEmpty()) {
            try {
                Files.deleteIfExists(Path.of(file));
            } catch (java.io.IOException e) {
                LOG.debugf("could not delete %s: %s", file, e.getMessage());
            }
        }
    }

    private static String truncate(String s) {
        return s == null || s.length() <= 2000 ? s : s.substring(0, 2000) + "…";
    }
}
