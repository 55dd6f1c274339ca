package io.batchyard.execution.backfill;

import static io.batchyard.api.CommonErrors.APPLICATION_PERMISSION;

import io.batchyard.api.ApiException;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.access.ProcessPermission;
import io.batchyard.execution.backfill.BackfillRequest.Root;
import io.batchyard.execution.bucket.BucketService;
import io.batchyard.execution.bucket.BucketStatus;
import io.batchyard.execution.clock.ServiceClock;
import io.batchyard.execution.lifecycle.RunService;
import io.batchyard.execution.runner.RunPolicyService;
import io.batchyard.persistence.InOrder;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.batchyard.schemas.backfill.ImpactRequest;
import io.batchyard.schemas.backfill.ImpactResult;
import io.batchyard.schemas.backfill.ImpactUnit;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Backfill plans: a preview computes which runs a restatement makes wrong (the roots' runs in the range, and, through
 * queue-service's archive, every run that consumed their output) and keeps the plan with the fingerprint of the state
 * it read. Previewing changes no run, bucket or queue row. The caller needs read permission on every process the plan
 * lists: a root it may not read does not exist (412), a plan reaching a process it may not read is refused (14)
 * without naming that process.
 */
@ApplicationScoped
public class BackfillService {

    /** How long computing a plan took (queue-service's walk, the ledger, run history, permissions). */
    public static final String PLAN_TIMER = "batchyard.backfill.plan";

    /** How many recent successful runs of a process its estimate is the median of. */
    static final int ESTIMATE_RUNS = 20;

    private final ProcessDefinitionRepository definitions;
    private final ProcessPermission permission;
    private final BucketService buckets;
    private final RunService runs;
    private final ImpactClient queue;
    private final BackfillRepository plans;
    private final ServiceClock clock;
    private final BackfillEvents events;
    private final BackfillEntryRepository entries;
    private final RunPolicyService policies;
    private final LineageClient lineage;
    private final Timer planTimer;

    public BackfillService(ProcessDefinitionRepository definitions, ProcessPermission permission,
                           BucketService buckets, RunService runs, ImpactClient queue, BackfillRepository plans,
                           ServiceClock clock, BackfillEvents events, BackfillEntryRepository entries,
                           RunPolicyService policies, LineageClient lineage, MeterRegistry meters) {
        this.entries = entries;
        this.lineage = lineage;
        this.policies = policies;
        this.definitions = definitions;
        this.permission = permission;
        this.buckets = buckets;
        this.runs = runs;
        this.queue = queue;
        this.plans = plans;
        this.clock = clock;
        this.events = events;
        this.planTimer = Timer.builder(PLAN_TIMER).description("Computing a backfill plan, request to plan")
                .serviceLevelObjectives(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
                        Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(5))
                .register(meters);
    }

    @WithTransaction
    public Uni<BackfillPlan> preview(Caller caller, BackfillRequest request) {
        return compute(caller, request).call(plans::insert);
    }

    /**
     * Starts a backfill from a kept plan. Refused up front: a plan the caller may not read (461), a process of it the
     * caller may not execute (14, naming only those: the caller reads them all), a plan whose state moved since it was
     * made (462, with the difference) unless {@code recompute}, which runs the plan of the same request as it is now,
     * and a plan with entries the runner cannot re-run (465: a process without a run policy, an entry without a
     * bucket). The backfill starts QUEUED; the driver ({@link BackfillDriver}) runs it.
     */
    @WithTransaction
    public Uni<Started> start(Caller caller, BackfillStart start) {
        return readablePlan(caller, start.planId())
                .call(kept -> requireExecute(caller, kept))
                .chain(kept -> compute(caller, kept.request()).chain(now -> {
                    PlanDiff diff = PlanDiff.of(kept, now);
                    if (!diff.stale()) {
                        return Uni.createFrom().item(kept);
                    }
                    if (!start.recomputeOrDefault()) {
                        return Uni.createFrom().failure(ExecutionError.BACKFILL_PLAN_STALE.exception(diff.describe()));
                    }
                    return requireExecute(caller, now).chain(() -> plans.insert(now)).replaceWith(now);
                }))
                .call(this::requireRunnable)
                .chain(plan -> {
                    Backfill backfill = new Backfill(UUID.randomUUID(), plan.planId(), BackfillState.QUEUED,
                            start.concurrencyOrDefault(), start.onFailureOrDefault(), caller.name(), null, null, 0);
                    return plans.insert(backfill, caller.name())
                            .chain(() -> events.started(backfill, plan))
                            .chain(() -> plans.findBackfill(backfill.backfillId()))
                            .map(stored -> new Started(stored.orElseThrow(), plan));
                });
    }

    /** A started backfill with the plan it runs and where its entries are. */
    public record Started(Backfill backfill, BackfillPlan plan, BackfillProgressView progress) {

        Started(Backfill backfill, BackfillPlan plan) {
            this(backfill, plan, BackfillProgressView.of(List.of()));
        }
    }

    /** A backfill and its plan, to a caller who may read every process of the plan (else 463). */
    @WithSession
    public Uni<Started> backfill(Caller caller, UUID backfillId) {
        return readableBackfill(caller, backfillId);
    }

    /**
     * The backfills {@code caller} may read (each one's plan lists only processes it may read, as {@link #backfill}
     * requires), newest first, optionally of one state; filtered in the query so that page and total agree.
     */
    @WithSession
    public Uni<Page<BackfillSummary>> list(Caller caller, BackfillState state, PageRequest page) {
        return permission.readable(caller).chain(applications -> plans
                .list(state, applications, page.limit(), page.offset())
                .chain(items -> plans.count(state, applications).map(total -> Page.of(items, total, page))));
    }

    /**
     * Pause, resume or cancel: needs execute permission on every process of the plan, and a state the table allows
     * (464 otherwise). A move a concurrent one beat changes nothing and is refused the same way.
     */
    @WithTransaction
    public Uni<Started> act(Caller caller, UUID backfillId, BackfillState.Action action) {
        return readableBackfill(caller, backfillId)
                .call(found -> requireExecute(caller, found.plan()))
                .call(found -> {
                    Backfill b = found.backfill();
                    if (!b.state().canBecome(action.target())) {
                        return Uni.createFrom().failure(illegal(b, action));
                    }
                    return plans.move(b, action.target(), caller.name()).invoke(moved -> {
                        if (moved != 1) {
                            throw illegal(b, action);
                        }
                    }).chain(() -> events.moved(b, action.target(), found.plan().entriesThatRun().size(),
                            counts(found)));
                })
                .chain(found -> readableBackfill(caller, backfillId));
    }

    private static BackfillEvents.Counts counts(Started found) {
        BackfillProgressView p = found.progress();
        return new BackfillEvents.Counts(found.plan().entriesThatRun().size(), p.succeeded(), p.failed(), p.skipped(),
                p.running());
    }

    private static ApiException illegal(Backfill b, BackfillState.Action action) {
        return ExecutionError.ILLEGAL_BACKFILL_TRANSITION.exception("backfill " + b.backfillId() + " is "
                + b.state() + " and cannot " + action.name().toLowerCase(Locale.ROOT));
    }

    private Uni<Started> readableBackfill(Caller caller, UUID backfillId) {
        Supplier<ApiException> unknown = () -> ExecutionError.UNKNOWN_BACKFILL.exception("backfill " + backfillId
                + " does not exist");
        return plans.findBackfill(backfillId).map(found -> found.orElseThrow(unknown))
                .chain(b -> plans.find(b.planId()).map(p -> p.orElseThrow(unknown))
                        .call(p -> readsAll(caller, processesOf(p)).invoke(all -> {
                            if (!all) {
                                throw unknown.get();
                            }
                        }))
                        .chain(p -> entries.entries(backfillId).map(runs -> new Started(b, p,
                                BackfillProgressView.of(runs)))));
    }

    private Uni<BackfillPlan> readablePlan(Caller caller, UUID planId) {
        return plans.find(planId).map(found -> found.orElseThrow(() -> unknownPlan(planId)))
                .call(plan -> readsAll(caller, processesOf(plan)).invoke(all -> {
                    if (!all) {
                        throw unknownPlan(planId);
                    }
                }));
    }

    /** Every entry is one the runner can re-run: its process has a run policy, and it has a bucket. */
    private Uni<Void> requireRunnable(BackfillPlan plan) {
        List<Long> processes = plan.entriesThatRun().stream().map(PlanEntry::processId).distinct().sorted().toList();
        return policies.withPolicy(processes).invoke(withPolicy -> {
            List<String> refused = new ArrayList<>();
            processes.stream().filter(p -> !withPolicy.contains(p))
                    .forEach(p -> refused.add("process " + p + " has no run policy"));
            plan.entriesThatRun().stream().filter(e -> e.bucket() == null || e.bucket().isBlank()).limit(20)
                    .forEach(e -> refused.add("entry " + e.entryNo() + " (process " + e.processId() + ") has no bucket"));
            if (!refused.isEmpty()) {
                throw ExecutionError.BACKFILL_NOT_RUNNABLE.exception("a backfill re-runs its entries on the runner: "
                        + String.join("; ", refused));
            }
        }).replaceWithVoid();
    }

    /**
     * Execute permission on every process the plan re-runs (a pruned entry runs nothing); the refusal names those the
     * caller lacks it on.
     */
    private Uni<Void> requireExecute(Caller caller, BackfillPlan plan) {
        if (caller.admin()) {
            return Uni.createFrom().voidItem();
        }
        List<Long> processes = processesOf(plan, plan.entriesThatRun()).stream().sorted().toList();
        return InOrder.map(processes, p -> permission.allows(caller, p, Permission.EXECUTE)).invoke(allowed -> {
            List<Long> refused = new ArrayList<>();
            for (int i = 0; i < processes.size(); i++) {
                if (!allowed.get(i)) {
                    refused.add(processes.get(i));
                }
            }
            if (!refused.isEmpty()) {
                throw APPLICATION_PERMISSION.exception("running this backfill needs execute permission on processes "
                        + refused.stream().map(String::valueOf).collect(Collectors.joining(", ")));
            }
        }).replaceWithVoid();
    }

    /** The processes a plan belongs to: its roots, whatever it found, and every process it lists. */
    private static Set<Long> processesOf(BackfillPlan plan) {
        return processesOf(plan, plan.entries());
    }

    /** The plan's roots and the processes of {@code entries}. */
    private static Set<Long> processesOf(BackfillPlan plan, List<PlanEntry> entries) {
        Set<Long> processes = entries.stream().map(PlanEntry::processId)
                .collect(Collectors.toCollection(HashSet::new));
        plan.request().roots().forEach(root -> processes.add(root.processId()));
        return processes;
    }

    /** How many entries of backfills not ended are in each state ({@link BackfillMeters}). */
    @WithSession
    public Uni<Map<EntryState, Long>> countLiveEntriesByState() {
        return entries.countLiveByState();
    }

    /** How many backfills are in each state ({@link BackfillMeters}). */
    @WithSession
    public Uni<Map<BackfillState, Long>> countByState() {
        return plans.countByState();
    }

    /** The plan of {@code request} as the state is now, kept by nobody yet; timed when it comes out. */
    private Uni<BackfillPlan> compute(Caller caller, BackfillRequest request) {
        return Uni.createFrom().deferred(() -> {
            long started = System.nanoTime();
            return computeUntimed(caller, request)
                    .invoke(plan -> planTimer.record(Duration.ofNanos(System.nanoTime() - started)));
        });
    }

    private Uni<BackfillPlan> computeUntimed(Caller caller, BackfillRequest request) {
        if (request.batchIdsOrNone().isEmpty() && !request.hasBucketRange()) {
            throw ExecutionError.INVALID_BACKFILL.exception(
                    "name the restated batches (batchIds) or a bucket range (fromBucket and toBucket)");
        }
        if ((request.fromBucket() == null) != (request.toBucket() == null)) {
            throw ExecutionError.INVALID_BACKFILL.exception("a bucket range needs both fromBucket and toBucket");
        }
        if (request.hasBucketRange() && request.fromBucket().compareTo(request.toBucket()) > 0) {
            throw ExecutionError.INVALID_BACKFILL.exception("the bucket range ends (" + request.toBucket()
                    + ") before it starts (" + request.fromBucket() + ")");
        }
        List<Long> roots = request.roots().stream().map(Root::processId).distinct().sorted().toList();
        return requireRoots(caller, roots)
                .chain(() -> request.hasBucketRange()
                        ? buckets.between(roots, request.fromBucket(), request.toBucket())
                        : Uni.createFrom().item(List.<BucketStatus>of()))
                .map(ledger -> RootSelection.of(request, roots, ledger))
                .chain(selection -> queue.impact(new ImpactRequest(roots, selection.runIds(),
                                request.batchIdsOrNone(), selection.cascades(request)))
                        .chain(answer -> plan(caller, request, selection, answer)));
    }

    /** A kept plan, to a caller who may read every process it lists; to anyone else it does not exist (461). */
    @WithSession
    public Uni<BackfillPlan> plan(Caller caller, UUID planId) {
        return readablePlan(caller, planId);
    }

    private Uni<BackfillPlan> plan(Caller caller, BackfillRequest request, RootSelection selection,
                                   ImpactResult answer) {
        List<ImpactUnit> units = selection.units(answer);
        Set<Long> processes = units.stream().map(ImpactUnit::processId).collect(Collectors.toSet());
        List<Long> runIds = units.stream().map(ImpactUnit::runId).filter(Objects::nonNull).toList();
        return readsAll(caller, processes).invoke(all -> {
                    if (!all) {
                        throw APPLICATION_PERMISSION.exception("the plan reaches processes of applications you may"
                                + " not read; a backfill needs read permission on every process it lists");
                    }
                })
                .chain(() -> runs.medianDurations(processes, ESTIMATE_RUNS))
                .chain(estimates -> runs.markings(runIds).map(markings -> BackfillPlanner.plan(units,
                        RootSelection.buckets(markings), estimates)))
                .chain(entries -> pruned(request, entries))
                .map(entries -> BackfillPlan.of(UUID.randomUUID(), selection.fingerprint(answer), request,
                        caller.name(), OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC), entries));
    }

    /** The entries with those a root's columns cannot change pruned; as they are when no root names columns. */
    private Uni<List<PlanEntry>> pruned(BackfillRequest request, List<PlanEntry> entries) {
        if (!request.namesColumns()) {
            return Uni.createFrom().item(entries);
        }
        List<String> columns = request.roots().stream().flatMap(r -> r.columnsOrNone().stream()).distinct().toList();
        return lineage.reach(columns).map(reach -> ColumnPruning.prune(entries, request.roots(), reach));
    }

    /** Each root is a parent the caller may read; otherwise it does not exist (412), named as the caller named it. */
    private Uni<Void> requireRoots(Caller caller, List<Long> roots) {
        return definitions.findAll(roots).chain(found -> {
            Map<Long, ProcessDefinition> byId = found.stream()
                    .collect(Collectors.toMap(ProcessDefinition::processId, d -> d));
            return InOrder.each(roots, root -> {
                ProcessDefinition d = byId.get(root);
                if (d == null || d.deleted()) {
                    return Uni.createFrom().failure(unknownProcess(root));
                }
                return permission.require(caller, root, Permission.READ, () -> unknownProcess(root))
                        .invoke(() -> {
                            if (!d.isParent()) {
                                throw ExecutionError.INVALID_BACKFILL.exception("process " + root
                                        + " is a step; a backfill's roots are jobs (parents)");
                            }
                        });
            });
        });
    }

    private Uni<Boolean> readsAll(Caller caller, Set<Long> processes) {
        if (caller.admin()) {
            return Uni.createFrom().item(true);
        }
        return InOrder.map(List.copyOf(processes), p -> permission.allows(caller, p, Permission.READ))
                .map(allowed -> allowed.stream().allMatch(Boolean::booleanValue));
    }

    private static ApiException unknownProcess(long pid) {
        return ExecutionError.UNKNOWN_PROCESS.exception("process " + pid + " does not exist");
    }

    private static ApiException unknownPlan(UUID planId) {
        return ExecutionError.UNKNOWN_BACKFILL_PLAN.exception("backfill plan " + planId + " does not exist");
    }
}
