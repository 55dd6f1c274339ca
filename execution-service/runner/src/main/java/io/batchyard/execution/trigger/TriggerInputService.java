package io.batchyard.execution.trigger;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.execution.bucket.BucketService;
import io.batchyard.execution.clock.ServiceClock;
import io.batchyard.execution.deployment.DeploymentService;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.RunInputs;
import io.batchyard.execution.runner.RunPolicyService;
import io.batchyard.execution.runner.RunnerConfig;
import io.batchyard.execution.runner.RunnerJob;
import io.batchyard.persistence.InOrder;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Bucket-aware triggering: every {@code BatchEnqueued} of a parent with a policy is recorded as an input of one of the
 * parent's buckets, and the bucket's policy decides whether a trigger run is due; a due run lists every batch it
 * consumes. The decision, the input, the trigger run and the event's ledger row commit in one transaction, under the
 * lock of the parent's trigger_policy row, so a duplicate or late delivery decides nothing twice and two inputs of one
 * parent are decided one after the other. Starting the run happens after the commit ({@link TriggerStarts}); for a
 * stand-alone parent the bucket is recorded INIT in the same transaction, so a start that was lost is the runner's
 * next tick, and the runner claims exactly the attributed batches ({@link RunInputs}).
 */
@ApplicationScoped
public class TriggerInputService implements RunInputs {

    /** The ledger name of the BatchEnqueued consumer. */
    public static final String CONSUMER = "execution-triggers";
    /** Timed-out buckets one sweep fires at most; the next sweep takes the rest. */
    static final int SWEEP_BATCH = 100;

    private final ProcessDefinitionRepository definitions;
    private final TriggerPolicyRepository policies;
    private final TriggerRunRepository runs;
    private final RunPolicyService jobs;
    private final BucketService buckets;
    private final DeploymentService deployments;
    private final Planner planner;
    private final ProcessedEventLedger ledger;
    private final ExternalLauncher launcher;
    private final ServiceClock clock;
    private final RunnerConfig config;
    private final TriggerMeters meters;
    private final Duration relaunchAfter;

    public TriggerInputService(ProcessDefinitionRepository definitions, TriggerPolicyRepository policies,
                               TriggerRunRepository runs, RunPolicyService jobs, BucketService buckets,
                               DeploymentService deployments, Planner planner, ProcessedEventLedger ledger,
                               ExternalLauncher launcher, ServiceClock clock, RunnerConfig config,
                               TriggerMeters meters,
                               @ConfigProperty(name = "batchyard.trigger.relaunch-after", defaultValue = "PT5M")
                               Duration relaunchAfter) {
        this.relaunchAfter = relaunchAfter;
        this.definitions = definitions;
        this.policies = policies;
        this.runs = runs;
        this.jobs = jobs;
        this.buckets = buckets;
        this.deployments = deployments;
        this.planner = planner;
        this.ledger = ledger;
        this.launcher = launcher;
        this.clock = clock;
        this.config = config;
        this.meters = meters;
    }

    /** An input as recorded: its id, the parent's bucket it feeds, and when its event happened. */
    private record Recorded(long inputId, String bucket, OffsetDateTime arrivedAt, Instant eventAt, String eventId) {
    }

    /**
     * The decision for a batch whose parent takes no trigger, from one read, outside a transaction and without a
     * ledger row: such a batch changes nothing here, so deciding it again on a redelivery changes nothing either. (A
     * redelivery that comes after the parent was given a policy is an input like a batch arriving then.) Most
     * batches are of this kind, and this spares each of them a transaction. Empty when the parent has a policy or
     * the step is unknown: {@link #onBatch} decides.
     */
    @WithSession
    public Uni<Optional<TriggerDecision>> withoutPolicy(BatchEnqueued event) {
        return policies.parentWithoutPolicy(event.getConsumerProcessId()).map(parent -> parent.map(id ->
                TriggerDecision.optedOut(id, "parent " + id + " has trigger policy none")));
    }

    /** Decides once what a batch enqueued for one of a parent's steps does; empty for a duplicate delivery. */
    @WithTransaction
    public Uni<Optional<TriggerDecision>> onBatch(BatchEnqueued event) {
        AtomicReference<TriggerDecision> decided = new AtomicReference<>();
        return ledger.once(CONSUMER, event, () -> decide(event).invoke(decided::set))
                .map(applied -> applied ? Optional.of(decided.get()) : Optional.empty());
    }

    private Uni<TriggerDecision> decide(BatchEnqueued event) {
        long step = event.getConsumerProcessId();
        return definitions.find(step).chain(consumer -> {
            // the consumer is a step; a parent named directly is taken as itself
            Long parentId = consumer.map(c -> c.isParent() ? c.processId() : c.parentProcessId()).orElse(null);
            if (parentId == null) {
                return ignored(null, "process " + step + " is not known to execution-service");
            }
            return policies.lock(parentId).chain(found -> {
                TriggerSettings settings = found.orElse(TriggerSettings.NONE);
                if (settings.policy() == TriggerPolicy.NONE) {
                    return Uni.createFrom().item(TriggerDecision.optedOut(parentId, "parent " + parentId
                            + " has trigger policy none"));
                }
                return definitions.find(parentId).chain(parent -> {
                    if (parent.isEmpty() || parent.get().deleted()) {
                        return ignored(parentId, "parent " + parentId + " is not a live parent");
                    }
                    int type = parent.get().workflowTypeId();
                    if (type != Planner.STAND_ALONE) {
                        // Oozie and Airflow parents belong to an orchestrator: the launcher hook asks it
                        return !launcher.configured()
                                ? ignored(parentId, "parent " + parentId + " has workflow type " + type
                                        + " and no launcher hook is configured (batchyard.trigger.launcher.kind)")
                                : accept(parent.get(), settings, null, event);
                    }
                    return jobs.job(parentId).chain(job -> job.filter(RunnerJob::enabled).isEmpty()
                            ? ignored(parentId, "parent " + parentId + " has no enabled run policy")
                            : accept(parent.get(), settings, job.get(), event));
                });
            });
        });
    }

    /** Records the input, then decides for its bucket, once the parent is deployed. */
    private Uni<TriggerDecision> accept(ProcessDefinition parent, TriggerSettings settings, RunnerJob job,
                                        BatchEnqueued event) {
        long parentId = parent.processId();
        return record(parentId, settings, job, event).chain(input -> deployments.latest(parentId).chain(latest -> {
            Optional<String> notDeployed = TriggerService.notDeployed(parentId, parent.name(), latest);
            if (notDeployed.isPresent()) {
                // the input is kept: once deployed, the bucket's next input decides with it
                return Uni.createFrom().item(TriggerDecision.of(parentId, TriggerDecision.Outcome.NOT_DEPLOYED,
                        notDeployed.get()));
            }
            return place(parent, settings, input, event);
        }));
    }

    /**
     * The input's bucket of the parent: with the upstream grain the input's own bucket (for a job with a bucket
     * pattern, its current period, as a schedule fire would); an input without a bucket of its own joins, under a
     * policy that waits for several inputs, the oldest waiting bucket that nothing from its process arrived for. With
     * a grain of its own, the bucket that holds the start of the input's span.
     */
    private Uni<Recorded> record(long parentId, TriggerSettings settings, RunnerJob job, BatchEnqueued event) {
        Long source = event.getSourceProcessId();
        String marking = event.getBatchMarking();
        long batch = event.getSourceBatchId();
        String own = TriggerRules.ownKey(marking, batch);
        OffsetDateTime arrivedAt = clock.now();
        Uni<Map<Long, TriggerSettings>> declared = source == null ? Uni.createFrom().item(Map.of())
                : policies.settingsOf(List.of(source));
        Uni<String> bucket = declared.chain(producers -> {
            if (settings.grain() != null) {
                TriggerSettings declaration = source == null ? null : producers.get(source);
                return Uni.createFrom().item(TriggerRules.consumerBucket(marking, batch, producer(declaration),
                        settings.grain(), zoneOf(settings), arrivedAt.toInstant()));
            }
            if (job != null && job.bucket() != null) {
                return planner.bucketAt(job, clock.localNow(runnerZone()), new ArrayList<>())
                        .map(current -> current == null ? own : current);
            }
            boolean unmarked = !own.equals(marking == null ? null : marking.strip());
            if (unmarked && source != null && settings.policy() != TriggerPolicy.EACH) {
                return runs.oldestWaitingWithout(parentId, source).map(oldest -> oldest.orElse(own));
            }
            return Uni.createFrom().item(own);
        });
        return bucket.chain(b -> runs.insertInput(new TriggerRunRepository.Input(parentId, b, source, batch,
                        event.getQueueId(), event.getConsumerProcessId(), own, arrivedAt))
                .map(id -> new Recorded(id, b, arrivedAt, event.getHeader().getOccurredAt(),
                        String.valueOf(event.getHeader().getEventId()))));
    }

    /**
     * What the input does to its bucket: under each a run (or, coalescing, joins the bucket's pending one); under the
     * others it joins a pending run, is late for a started one, or makes its bucket due or leaves it waiting.
     */
    private Uni<TriggerDecision> place(ProcessDefinition parent, TriggerSettings settings, Recorded input,
                                       BatchEnqueued event) {
        long parentId = parent.processId();
        String bucket = input.bucket();
        OffsetDateTime timeoutAt = settings.policy() == TriggerPolicy.ALL_WITH_TIMEOUT && settings.timeout() != null
                ? input.arrivedAt().plus(settings.timeout()) : null;
        return runs.lockPending(parentId, bucket).chain(pending -> runs.bucket(parentId, bucket).chain(state -> {
            Uni<TriggerRunRepository.BucketState> opened = state.isPresent() ? Uni.createFrom().item(state.get())
                    : runs.openBucket(parentId, bucket, input.arrivedAt(), timeoutAt)
                    .replaceWith(new TriggerRunRepository.BucketState("WAITING", input.arrivedAt(), timeoutAt));
            return opened.chain(current -> {
                if (settings.coalesce() && pending.isPresent()) {
                    return runs.attachInput(input.inputId(), pending.get(), false).replaceWith(decision(parent,
                            settings, TriggerDecision.Outcome.COALESCED, "batch " + event.getSourceBatchId()
                                    + " joined the pending run " + pending.get() + " of bucket " + bucket,
                            List.of(pending.get()), input.eventAt()));
                }
                if (settings.policy() == TriggerPolicy.EACH) {
                    return fire(parent, settings, bucket, "each: batch " + event.getSourceBatchId()
                            + from(event) + " arrived for bucket " + bucket, List.of(), input.eventAt(),
                            input.eventId());
                }
                if (!current.waiting()) {
                    // the bucket's run has started: the input is shown with it, never silently dropped
                    return runs.latestRun(parentId, bucket).chain(latest -> latest
                            .map(run -> runs.attachInput(input.inputId(), run, true))
                            .orElseGet(() -> runs.markLate(input.inputId())))
                            .replaceWith(TriggerDecision.of(parentId, TriggerDecision.Outcome.LATE, "batch "
                                    + event.getSourceBatchId() + from(event) + " arrived for bucket " + bucket
                                    + " after its run had started; recorded as late"));
                }
                return evaluate(parentId, settings, bucket, current, clock.instant()).chain(verdict -> verdict.due()
                        ? fire(parent, settings, bucket, verdict.reason(), missing(settings, verdict), input.eventAt(),
                                input.eventId())
                        : Uni.createFrom().item(TriggerDecision.of(parentId, TriggerDecision.Outcome.WAITING,
                                "bucket " + bucket + " of parent " + parentId + " waits: " + verdict.reason()
                                        + "; missing " + verdict.missing())));
            });
        }));
    }

    /** How the bucket stands under the parent's policy: what each input process delivered against what it owes. */
    Uni<TriggerRules.Verdict> evaluate(long parentId, TriggerSettings settings, String bucket,
                                       TriggerRunRepository.BucketState state, Instant now) {
        return inputsOf(parentId, settings).chain(k -> runs.arrivals(parentId, bucket).chain(arrivals ->
                policies.settingsOf(k).map(declared -> TriggerRules.evaluate(settings.policy(), settings.n(), k,
                        progress(settings, bucket, k, arrivals, declared),
                        state.timeoutAt() == null ? null : state.timeoutAt().toInstant(), now))));
    }

    /** Per input process: the keys the bucket expects of it and those that arrived. */
    Map<Long, TriggerRules.Progress> progress(TriggerSettings settings, String bucket, Collection<Long> inputs,
                                              List<TriggerRunRepository.Arrival> arrivals,
                                              Map<Long, TriggerSettings> declared) {
        Map<Long, TriggerRules.Progress> progress = new TreeMap<>();
        for (long input : inputs) {
            List<String> keys = arrivals.stream().filter(a -> a.sourceProcessId() != null
                    && a.sourceProcessId() == input).map(TriggerRunRepository.Arrival::inputBucket).toList();
            List<String> expected = TriggerRules.expected(bucket, settings.grain(), zoneOf(settings),
                    producer(declared.get(input)), keys);
            progress.put(input, new TriggerRules.Progress(expected, Set.copyOf(keys), keys.size()));
        }
        return progress;
    }

    /** The input processes K: as declared, else every enqueuing process the parent's live steps name. */
    Uni<List<Long>> inputsOf(long parentId, TriggerSettings settings) {
        if (settings.inputs() != null) {
            return Uni.createFrom().item(settings.inputs());
        }
        return definitions.stepsOf(parentId).map(steps -> List.copyOf(AllEnqueuers.required(steps)));
    }

    /** A due bucket becomes a PENDING run with every input that arrived for it, and stops waiting. */
    private Uni<TriggerDecision> fire(ProcessDefinition parent, TriggerSettings settings, String bucket, String reason,
                                      List<TriggerRun.Missing> missing, Instant eventAt, String eventId) {
        long parentId = parent.processId();
        OffsetDateTime now = clock.now();
        return runs.insertRun(parentId, bucket, reason, missing,
                        eventAt == null ? null : OffsetDateTime.ofInstant(eventAt, ZoneOffset.UTC), eventId, now)
                .call(run -> runs.attachArrivals(parentId, bucket, run))
                .call(() -> runs.fireBucket(parentId, bucket))
                .chain(run -> decision(parent, settings, TriggerDecision.Outcome.START, reason, List.of(run),
                        eventAt));
    }

    /**
     * A run to start after the commit: a stand-alone parent's bucket is INIT now (the runner's tick starts it should
     * the start be lost), unless the parent is paused; an Oozie or Airflow parent gets the launcher hook's request with
     * the bucket and every attributed batch.
     */
    private Uni<TriggerDecision> decision(ProcessDefinition parent, TriggerSettings settings,
                                          TriggerDecision.Outcome outcome, String why, List<Long> runIds,
                                          Instant eventAt) {
        long parentId = parent.processId();
        TriggerDecision decided = new TriggerDecision(parentId, outcome, why, runIds, null, eventAt, false);
        if (settings.paused()) {
            return Uni.createFrom().item(outcome == TriggerDecision.Outcome.START
                    ? decided.as(TriggerDecision.Outcome.PAUSED) : decided);
        }
        if (parent.workflowTypeId() == Planner.STAND_ALONE) {
            return runs.runs(runIds).chain(found -> InOrder.each(found, r -> buckets.rearm(parentId, r.bucket(), true)))
                    .replaceWith(decided);
        }
        if (outcome != TriggerDecision.Outcome.START) {
            return Uni.createFrom().item(decided); // the hook was asked for this pending run already
        }
        return runs.runs(runIds).map(found -> decided.withLaunch(launchRequest(parent, found.get(0))));
    }

    /**
     * The hook's request: the event that fired the run (its id lets an orchestrator drop a call it has seen; a bucket
     * fired by its timeout is named by the trigger run), the bucket and every batch attributed to the run.
     */
    static LaunchRequest launchRequest(ProcessDefinition parent, TriggerRun run) {
        String eventId = run.eventId();
        int type = parent.workflowTypeId();
        List<LaunchRequest.Batch> batches = run.batches().stream().map(b -> new LaunchRequest.Batch(b.queueId(),
                b.sourceBatchId(), b.sourceProcessId(), b.consumerProcessId(), b.inputBucket())).toList();
        return new LaunchRequest(parent.processId(), type, LaunchRequest.typeName(type),
                eventId == null ? "trigger-run-" + run.id() : eventId, run.bucket(), run.id(), batches);
    }

    /**
     * Fires every all-with-timeout bucket whose deadline passed on the service clock, with what arrived. Each
     * parent's row is locked with SKIP LOCKED, so of several replicas exactly one fires a bucket, and the bucket's
     * state is read again after the lock (an input may have fired it meanwhile).
     */
    @WithTransaction
    public Uni<Swept> sweep() {
        OffsetDateTime now = clock.now();
        return timeouts(now).chain(fired -> relaunches(now).map(again -> new Swept(fired, again)));
    }

    /** What a sweep decided: buckets fired by their timeout, and launches to make again. */
    public record Swept(List<TriggerDecision> timedOut, List<TriggerDecision> relaunched) {
    }

    /**
     * An Oozie or Airflow parent's trigger runs still PENDING {@code batchyard.trigger.relaunch-after} after their
     * decision: the launch was lost (the service stopped before calling the hook) or failed; the hook is asked again,
     * with the event id of the first call. A stand-alone parent's pending runs need nothing here: their INIT buckets
     * are the runner's tick.
     */
    private Uni<List<TriggerDecision>> relaunches(OffsetDateTime now) {
        if (!launcher.configured()) {
            return Uni.createFrom().item(List.of());
        }
        return runs.stalePending(now.minus(relaunchAfter), now, SWEEP_BATCH).chain(runs::runs)
                .chain(stale -> InOrder.map(stale, run -> runs.processOf(run.id()).chain(pid -> definitions.find(pid))
                        .map(parent -> parent.filter(p -> !p.deleted() && p.workflowTypeId() != Planner.STAND_ALONE)
                                .map(p -> new TriggerDecision(p.processId(), TriggerDecision.Outcome.LAUNCH,
                                        "launch again: trigger run " + run.id() + " is still pending", List.of(run.id()),
                                        launchRequest(p, run), null, false)))))
                .map(found -> found.stream().flatMap(Optional::stream).toList());
    }

    private Uni<List<TriggerDecision>> timeouts(OffsetDateTime now) {
        return runs.dueTimeouts(now, SWEEP_BATCH).chain(due -> InOrder.map(due, d -> runs.bucket(d.processId(),
                d.bucket()).chain(state -> state.filter(TriggerRunRepository.BucketState::waiting).isEmpty()
                ? Uni.createFrom().item(Optional.<TriggerDecision>empty())
                : policies.settings(d.processId()).chain(settings -> definitions.find(d.processId())
                        .chain(parent -> parent.isEmpty() || settings.policy() != TriggerPolicy.ALL_WITH_TIMEOUT
                                ? Uni.createFrom().item(Optional.<TriggerDecision>empty())
                                : evaluate(d.processId(), settings, d.bucket(), state.get(), now.toInstant())
                                .chain(verdict -> fire(parent.get(), settings, d.bucket(), verdict.reason(),
                                        missing(settings, verdict), null, null).map(Optional::of)))))))
                .map(decided -> decided.stream().flatMap(Optional::stream).toList());
    }

    /** What a run of an all-with-timeout bucket goes without; other policies record nothing missing. */
    private static List<TriggerRun.Missing> missing(TriggerSettings settings, TriggerRules.Verdict verdict) {
        if (settings.policy() != TriggerPolicy.ALL_WITH_TIMEOUT) {
            return List.of();
        }
        return verdict.missing().entrySet().stream().map(e -> new TriggerRun.Missing(e.getKey(), e.getValue()))
                .toList();
    }

    /** Live work: asked before a backfill. */
    @Override
    public int rank() {
        return 0;
    }

    @Override
    @WithTransaction
    public Uni<Attribution> attribute(long processId, List<String> bucketKeys) {
        return runs.start(processId, bucketKeys, clock.now()).chain(ids -> runs.sourceBatches(ids)
                .map(batches -> ids.isEmpty() ? Attribution.NONE : new Attribution(ids, batches)));
    }

    @Override
    @WithTransaction
    public Uni<Void> started(long processId, Attribution attribution, long instanceExecId) {
        return runs.recordInstance(attribution.runIds(), instanceExecId)
                .chain(() -> runs.firstEventAt(attribution.runIds()))
                .invoke(at -> at.ifPresent(t -> meters.latency(t.toInstant(), clock.instant())))
                .replaceWithVoid();
    }

    @Override
    @WithTransaction
    public Uni<Void> notStarted(long processId, Attribution attribution) {
        return runs.unstart(attribution.runIds());
    }

    /** The launcher hook started these runs (its orchestrator's runs). */
    @WithTransaction
    public Uni<Void> launched(List<Long> runIds, Instant eventAt) {
        if (eventAt != null) {
            meters.latency(eventAt, clock.instant());
        }
        return runs.launched(runIds, clock.now());
    }

    /**
     * After a run of the parent ended: the buckets of its pending trigger runs are INIT again (one that was RUNNING
     * when new data came is COMPLETE now; a FAILED one is left to the runner's retries); true when one is waiting and
     * the parent is not paused.
     */
    @WithTransaction
    public Uni<Boolean> armPending(long processId) {
        return policies.settings(processId).chain(settings -> settings.paused() ? Uni.createFrom().item(false)
                : runs.pending(processId).chain(runs::runs).chain(pending -> InOrder.map(pending,
                        r -> buckets.rearm(processId, r.bucket(), false)).map(armed -> armed.contains(true))));
    }

    /** The producer of an input: its declared grain and zone, else read from its keys, in the runner's zone. */
    TriggerRules.Producer producer(TriggerSettings declared) {
        if (declared == null) {
            return new TriggerRules.Producer(Optional.empty(), runnerZone());
        }
        return new TriggerRules.Producer(Optional.ofNullable(declared.grain()), zoneOf(declared));
    }

    ZoneId zoneOf(TriggerSettings settings) {
        return settings.zone() == null ? runnerZone() : ZoneId.of(settings.zone());
    }

    ZoneId runnerZone() {
        return ZoneId.of(config.timeZone());
    }

    private static String from(BatchEnqueued event) {
        return event.getSourceProcessId() == null ? "" : " of process " + event.getSourceProcessId();
    }

    private static Uni<TriggerDecision> ignored(Long parentId, String why) {
        return Uni.createFrom().item(TriggerDecision.of(parentId, TriggerDecision.Outcome.IGNORED, why));
    }
}
