package io.batchyard.execution.trigger;

import io.batchyard.api.ApiException;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.access.ProcessPermission;
import io.batchyard.execution.bucket.BucketGrain;
import io.batchyard.execution.bucket.BucketService;
import io.batchyard.execution.deployment.Deployment;
import io.batchyard.execution.deployment.DeploymentService;
import io.batchyard.execution.runner.MoreReasons;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.WaitingBucket;
import io.batchyard.persistence.InOrder;
import io.batchyard.persistence.Paging;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A parent's trigger settings, its trigger runs, pause and resume, and what /why says of its triggers: one transaction
 * (or session) per call. The inputs and the decisions they lead to are {@link TriggerInputService}'s.
 */
@ApplicationScoped
public class TriggerService implements MoreReasons {

    /** The longest timeout of all-with-timeout. */
    static final Duration LONGEST_TIMEOUT = Duration.ofDays(366);

    /** The most waiting buckets /why lists. */
    static final int WAITING_SHOWN = 10;

    /** A PUT body: every field but {@code policy} optional. */
    public record Request(String policy, List<Long> inputs, Integer n, String timeout, String grain, String zone,
                          Boolean coalesce) {
    }

    /**
     * A parent's settings as the API shows them: the input processes in force ({@code defaultInputs}: not declared,
     * every enqueuing process of its live steps), the grain ({@code upstream} by default) and the zone in force.
     */
    public record Settings(long processId, String policy, List<Long> inputs, boolean defaultInputs, Integer n,
                           String timeout, String grain, String zone, boolean coalesce, boolean paused) {
    }

    /** What a resume starts (oldest first) and what it skips, or would. */
    public record Resume(long processId, String mode, List<TriggerRun> start, List<TriggerRun> skip) {
    }

    /** A committed resume and the decisions to carry out after its commit. */
    public record Resumed(Resume resume, List<TriggerDecision> starts) {
    }

    private final ProcessDefinitionRepository definitions;
    private final TriggerPolicyRepository policies;
    private final TriggerRunRepository runs;
    private final TriggerInputService inputs;
    private final ProcessPermission permission;
    private final BucketService buckets;
    private final DeploymentService deployments;

    public TriggerService(ProcessDefinitionRepository definitions, TriggerPolicyRepository policies,
                          TriggerRunRepository runs, TriggerInputService inputs, ProcessPermission permission,
                          BucketService buckets, DeploymentService deployments) {
        this.definitions = definitions;
        this.policies = policies;
        this.runs = runs;
        this.inputs = inputs;
        this.permission = permission;
        this.buckets = buckets;
        this.deployments = deployments;
    }

    /**
     * Sets the trigger settings of a live parent, whatever its workflow type (stand-alone parents are started on the
     * runner, an Oozie or Airflow parent by its launcher), replacing the previous ones; its pause stays as it is.
     */
    @WithTransaction
    public Uni<Settings> save(Caller caller, long pid, Request request) {
        return liveParent(caller, pid, Permission.EXECUTE)
                .chain(() -> definitions.stepsOf(pid))
                .map(steps -> validated(request, AllEnqueuers.required(steps), pid))
                .chain(settings -> policies.save(pid, settings))
                .chain(() -> settings(pid));
    }

    @WithSession
    public Uni<Settings> get(Caller caller, long pid) {
        return liveParent(caller, pid, Permission.READ).chain(() -> settings(pid));
    }

    /** The parent's trigger runs, newest first. */
    @WithSession
    public Uni<Page<TriggerRun>> runs(Caller caller, long pid, PageRequest page) {
        return liveParent(caller, pid, Permission.READ)
                .chain(() -> runs.page(pid, new Paging(page.limit(), page.offset())))
                .chain(items -> runs.count(pid).map(total -> Page.of(items, total, page)));
    }

    /**
     * Pauses the parent's triggered runs: inputs are still recorded and due buckets become pending runs, but nothing
     * starts; buckets already handed to the runner and not started yet are taken back.
     */
    @WithTransaction
    public Uni<Settings> pause(Caller caller, long pid) {
        return liveParent(caller, pid, Permission.EXECUTE)
                .chain(() -> policies.setPaused(pid, true))
                .chain(() -> runs.pending(pid)).chain(runs::runs)
                .chain(pending -> buckets.withdraw(pid, pending.stream().map(TriggerRun::bucket).distinct().toList()))
                .chain(() -> settings(pid));
    }

    /** What a resume in {@code mode} would start and skip; changes nothing. */
    @WithTransaction
    public Uni<Resume> preview(Caller caller, long pid, String mode) {
        boolean skip = skipMode(mode);
        return liveParent(caller, pid, Permission.READ).chain(() -> plan(pid, skip));
    }

    /**
     * Resumes a paused parent: catch-up starts every pending run, oldest bucket first; skip starts the newest bucket's
     * and marks the older ones SKIPPED (their batches stay on the queue). 437 when the parent is not paused.
     */
    @WithTransaction
    public Uni<Resumed> resume(Caller caller, long pid, String mode) {
        boolean skip = skipMode(mode);
        return liveParent(caller, pid, Permission.EXECUTE)
                .chain(() -> policies.settings(pid))
                .invoke(settings -> {
                    if (!settings.paused()) {
                        throw ExecutionError.TRIGGER_NOT_PAUSED.exception("the triggered runs of parent " + pid
                                + " are not paused: nothing to resume (POST /processes/" + pid + "/trigger/pause)");
                    }
                })
                .chain(() -> policies.setPaused(pid, false))
                .chain(() -> plan(pid, skip))
                .call(plan -> runs.skip(plan.skip().stream().map(TriggerRun::id).toList()))
                .chain(plan -> definitions.find(pid).chain(parent -> starts(parent.orElseThrow(), plan.start())
                        .map(decisions -> new Resumed(new Resume(pid, plan.mode(), plan.start(),
                                plan.skip().stream().map(TriggerService::skipped).toList()), decisions))));
    }

    /** The pending runs of the parent, oldest bucket first; with skip, all but the newest bucket's are skipped. */
    private Uni<Resume> plan(long pid, boolean skip) {
        return runs.pending(pid).chain(runs::runs).map(pending -> {
            String newest = pending.isEmpty() ? null : pending.get(pending.size() - 1).bucket();
            List<TriggerRun> start = pending.stream().filter(r -> !skip || r.bucket().equals(newest)).toList();
            List<TriggerRun> skipped = pending.stream().filter(r -> skip && !r.bucket().equals(newest)).toList();
            return new Resume(pid, skip ? "skip" : "catch-up", start, skipped);
        });
    }

    /** A resumed parent's runs to start: a stand-alone parent's buckets INIT again, or one hook call per run. */
    private Uni<List<TriggerDecision>> starts(ProcessDefinition parent, List<TriggerRun> start) {
        long pid = parent.processId();
        if (start.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        TriggerDecision decided = new TriggerDecision(pid, TriggerDecision.Outcome.START, "resumed",
                start.stream().map(TriggerRun::id).toList(), null, null, false);
        if (parent.workflowTypeId() == Planner.STAND_ALONE) {
            return InOrder.each(start, r -> buckets.rearm(pid, r.bucket(), true)).replaceWith(List.of(decided));
        }
        return Uni.createFrom().item(start.stream().map(r -> new TriggerDecision(pid, TriggerDecision.Outcome.START,
                "resumed", List.of(r.id()), null, null, false).withLaunch(TriggerInputService.launchRequest(parent, r)))
                .toList());
    }

    private static TriggerRun skipped(TriggerRun r) {
        return new TriggerRun(r.id(), r.bucket(), TriggerRun.SKIPPED, r.reason(), r.batches(), r.missing(), r.late(),
                r.createdAt(), r.startedAt(), r.instanceExecId(), r.eventId());
    }

    private static boolean skipMode(String mode) {
        if (mode == null || mode.isBlank() || mode.equals("catch-up")) {
            return false;
        }
        if (mode.equals("skip")) {
            return true;
        }
        throw ExecutionError.INVALID_RESUME_MODE.exception("mode must be 'catch-up' (the default) or 'skip'; '" + mode
                + "' is not one");
    }

    /** PENDING trigger runs of every parent (the gauge). */
    @WithSession
    public Uni<Long> countPending() {
        return runs.countPending();
    }

    private Uni<Settings> settings(long pid) {
        return policies.settings(pid).chain(s -> inputs.inputsOf(pid, s).map(k -> new Settings(pid, s.policy().text(),
                k, s.inputs() == null, s.n(), s.timeout() == null ? null : s.timeout().toString(), s.grainText(),
                inputs.zoneOf(s).getId(), s.coalesce(), s.paused())));
    }

    /**
     * The settings of a request, checked: 426 for the policy, 435 for a field that is malformed or does not belong to
     * the policy, 436 for an input that is no enqueuing process of the parent's live steps.
     */
    static TriggerSettings validated(Request r, Set<Long> enqueuers, long pid) {
        if (r == null) {
            throw ExecutionError.INVALID_TRIGGER_POLICY.exception("a JSON body {\"policy\": \"each\" | \"all\" | "
                    + "\"any-of\" | \"n-of\" | \"all-with-timeout\" | \"none\", ...} is required");
        }
        TriggerPolicy policy = TriggerPolicy.of(r.policy());
        List<Long> declared = r.inputs();
        if (declared != null) {
            if (declared.isEmpty() || declared.stream().anyMatch(i -> i == null || i <= 0)
                    || new HashSet<>(declared).size() != declared.size()) {
                throw invalid("inputs must be a non-empty list of distinct process ids (omit it for every enqueuing "
                        + "process of the parent's steps)");
            }
            List<Long> foreign = declared.stream().filter(i -> !enqueuers.contains(i)).sorted().toList();
            if (!foreign.isEmpty()) {
                throw ExecutionError.NOT_AN_INPUT_OF_THE_PARENT.exception("process(es) " + foreign + " enqueue nothing"
                        + " to parent " + pid + ": its live steps' enqueuing processes are " + enqueuers);
            }
        }
        int k = declared != null ? declared.size() : enqueuers.size();
        if (r.n() != null && policy != TriggerPolicy.N_OF) {
            throw invalid("n is only for policy n-of");
        }
        if (policy == TriggerPolicy.N_OF && (r.n() == null || r.n() < 1 || r.n() > k)) {
            throw invalid("policy n-of needs n between 1 and the number of inputs (" + k + ")"
                    + (r.n() == null ? "; none was given" : "; " + r.n() + " is not"));
        }
        if (r.timeout() != null && policy != TriggerPolicy.ALL_WITH_TIMEOUT) {
            throw invalid("timeout is only for policy all-with-timeout");
        }
        Duration timeout = null;
        if (policy == TriggerPolicy.ALL_WITH_TIMEOUT) {
            if (r.timeout() == null) {
                throw invalid("policy all-with-timeout needs a timeout, an ISO-8601 duration such as PT2H");
            }
            try {
                timeout = Duration.parse(r.timeout());
            } catch (DateTimeParseException e) {
                throw invalid("timeout must be an ISO-8601 duration such as PT2H; '" + r.timeout() + "' is not one");
            }
            // whole seconds are what is stored; a year bounds the wait (and keeps the deadline a date)
            if (timeout.toSeconds() < 1 || timeout.compareTo(LONGEST_TIMEOUT) > 0) {
                throw invalid("timeout must be at least one second and at most " + LONGEST_TIMEOUT.toDays()
                        + " days; " + r.timeout() + " is not");
            }
        }
        BucketGrain grain = null;
        if (r.grain() != null && !r.grain().equals("upstream")) {
            grain = BucketGrain.of(r.grain()).filter(g -> g.text().equals(r.grain())).orElseThrow(() -> invalid(
                    "grain must be one of 'upstream', 'hour', 'day', 'week', 'month'; '" + r.grain() + "' is not one"));
        }
        String zone = null;
        if (r.zone() != null) {
            try {
                ZoneId id = ZoneId.of(r.zone());
                if (id instanceof ZoneOffset) {
                    throw new DateTimeException("an offset");
                }
                zone = id.getId();
            } catch (DateTimeException e) {
                throw invalid("zone must be a region id such as Europe/Berlin or UTC; '" + r.zone() + "' is not one");
            }
        }
        return new TriggerSettings(policy, declared == null ? null : List.copyOf(declared), r.n(), timeout, grain, zone,
                r.coalesce() == null || r.coalesce(), false);
    }

    private static ApiException invalid(String why) {
        return ExecutionError.INVALID_TRIGGER_SETTINGS.exception(why);
    }

    /** 427 unless a live parent whose application grants {@code caller} read (then 14 without {@code needed}). */
    private Uni<Void> liveParent(Caller caller, long pid, Permission needed) {
        return definitions.find(pid).invoke(parent -> requireLiveParent(parent, pid))
                .chain(() -> permission.require(caller, pid, needed, () -> notTriggerable(pid)));
    }

    private static void requireLiveParent(Optional<ProcessDefinition> parent, long pid) {
        if (parent.isEmpty() || !parent.get().isParent() || parent.get().deleted()) {
            throw notTriggerable(pid);
        }
    }

    private static ApiException notTriggerable(long pid) {
        return ExecutionError.NOT_A_TRIGGERABLE_PROCESS.exception("process " + pid
                + " is not a live parent process (known to execution-service from the registry's events)");
    }

    /** The trigger found the parent running after all (another runner claimed it first): the run's end starts it. */
    @WithTransaction
    public Uni<Void> markPending(long parentId) {
        return policies.markPending(parentId);
    }

    /** Clears a queued trigger of the parent; true when one was waiting. */
    @WithTransaction
    public Uni<Boolean> takePending(long parentId) {
        return policies.takePending(parentId);
    }

    /** What the launcher hook answered, for /why: a failure stays a reason until a launch succeeds. */
    @WithTransaction
    public Uni<Void> launched(long parentId, Optional<String> failure) {
        return failure.map(why -> policies.recordLaunchFailure(parentId, why))
                .orElseGet(() -> policies.clearLaunchFailure(parentId));
    }

    /**
     * NOT_DEPLOYED for a triggered parent whose latest deployment did not succeed (its triggers start nothing),
     * TRIGGER_PAUSED while its triggered runs are paused, LAUNCH_FAILED after the launcher hook's last failure, and
     * WAITING_FOR_BUCKET naming the oldest bucket that waits for its data and what it misses.
     */
    @Override
    public Uni<List<Planner.Reason>> reasons(long processId) {
        return findings(processId).map(Findings::reasons);
    }

    /** The reasons above and the waiting buckets, from one read of the settings and one of the waiting buckets. */
    @Override
    public Uni<Findings> findings(long processId) {
        return policies.settings(processId).chain(settings -> settings.policy() == TriggerPolicy.NONE
                && !settings.paused() ? Uni.createFrom().item(new Findings(List.of(), List.of()))
                : definitions.find(processId).chain(parent -> deployments.latest(processId).chain(latest -> {
                    List<Planner.Reason> reasons = new ArrayList<>();
                    if (settings.policy() != TriggerPolicy.NONE) {
                        notDeployed(processId, parent.map(ProcessDefinition::name).orElse(null), latest)
                                .ifPresent(why -> reasons.add(new Planner.Reason("NOT_DEPLOYED", why)));
                    }
                    Uni<Void> paused = !settings.paused() ? Uni.createFrom().voidItem()
                            : runs.countPending(processId).invoke(pending -> reasons.add(new Planner.Reason(
                                    "TRIGGER_PAUSED", "the triggered runs of parent " + processId + " are paused: "
                                    + pending + " pending run(s) wait; resume with POST /processes/"
                                    + processId + "/trigger/resume"))).replaceWithVoid();
                    return paused.chain(() -> policies.launchFailure(processId)).invoke(failure -> failure.ifPresent(
                            why -> reasons.add(new Planner.Reason("LAUNCH_FAILED", "launch failed: the launcher hook "
                                    + "could not start parent " + processId + ": " + why))))
                            .chain(() -> waiting(processId, settings)).map(waiting -> {
                                if (!waiting.isEmpty()) {
                                    reasons.add(waitingFor(processId, waiting));
                                }
                                return new Findings(reasons, waiting);
                            });
                })));
    }

    private static Planner.Reason waitingFor(long processId, List<WaitingBucket> waiting) {
        WaitingBucket oldest = waiting.get(0);
        return new Planner.Reason("WAITING_FOR_BUCKET", "bucket " + oldest.bucket() + " of parent " + processId
                + " waits for its data (policy " + oldest.policy() + ", " + oldest.arrived() + " batch(es) arrived"
                + (oldest.expected() > 0 ? " of " + oldest.expected() + " expected" : "") + "); missing "
                + oldest.missing().stream().map(m -> m.processId() + (m.buckets().isEmpty() ? " (any batch)"
                        : " " + m.buckets())).toList()
                + (oldest.timeoutAt() == null ? "" : "; runs with what arrived at " + oldest.timeoutAt())
                + (waiting.size() > 1 ? "; " + (waiting.size() - 1) + " more bucket(s) wait" : ""));
    }

    /** The oldest waiting buckets with what each input process delivered against what it owes. */
    private Uni<List<WaitingBucket>> waiting(long processId, TriggerSettings settings) {
        if (settings.policy() == TriggerPolicy.NONE || settings.policy() == TriggerPolicy.EACH) {
            return Uni.createFrom().item(List.of());
        }
        return runs.waiting(processId, WAITING_SHOWN).chain(waiting -> waiting.isEmpty()
                ? Uni.createFrom().item(List.<WaitingBucket>of())
                : inputs.inputsOf(processId, settings).chain(k -> policies.settingsOf(k).map(declared ->
                        waiting.stream().map(w -> waitingBucket(settings, w, k, declared)).toList())));
    }

    private WaitingBucket waitingBucket(TriggerSettings settings, TriggerRunRepository.Waiting w, List<Long> k,
                                        Map<Long, TriggerSettings> declared) {
        Map<Long, TriggerRules.Progress> progress = inputs.progress(settings, w.bucket(), k, w.arrived(), declared);
        int expected = progress.values().stream().mapToInt(p -> p.expected().isEmpty() ? 1 : p.expected().size())
                .sum();
        Map<Long, List<String>> missing = new LinkedHashMap<>();
        progress.forEach((process, p) -> {
            if (!p.complete()) {
                missing.put(process, p.missing());
            }
        });
        return new WaitingBucket(w.bucket(), settings.policy().text(), w.arrived().size(), expected,
                missing.entrySet().stream().map(e -> new WaitingBucket.Missing(e.getKey(), e.getValue())).toList(),
                w.timeoutAt());
    }

    /**
     * The words BDRE users know ({@code <name> has not been deployed. Please deploy it}), then why it counts as not
     * deployed: no deployment at all, or the state of the latest one with the reason it failed.
     */
    static Optional<String> notDeployed(long parentId, String name, Optional<Deployment> latest) {
        if (Deployment.deployed(latest)) {
            return Optional.empty();
        }
        String state = latest.map(d -> "its latest deployment " + d.deploymentId() + " is " + d.status()
                + (d.status() == Deployment.Status.FAIL && d.message() != null ? ": " + d.message() : ""))
                .orElse("it has no deployment");
        return Optional.of((name == null || name.isBlank() ? "parent " + parentId : name) + " has not been deployed. "
                + "Please deploy it (POST /processes/" + parentId + "/deployments): parent " + parentId
                + " is started by its data only once its latest deployment succeeded, and " + state);
    }
}
