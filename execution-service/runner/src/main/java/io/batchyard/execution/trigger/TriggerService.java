package io.batchyard.execution.trigger;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.bucket.BucketService;
import io.batchyard.execution.deployment.Deployment;
import io.batchyard.execution.deployment.DeploymentService;
import io.batchyard.execution.access.ProcessPermission;
import io.batchyard.execution.runner.MoreReasons;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.RunnerJob;
import io.batchyard.execution.runner.RunPolicyService;
import io.batchyard.execution.runner.RunnerService;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Trigger policies of parents, and what a {@code BatchEnqueued} decides for its parent: one transaction per call. The
 * decision and the event's ledger row commit together, so a duplicate or late delivery decides nothing twice.
 */
@ApplicationScoped
public class TriggerService implements MoreReasons {

    /** The ledger name of the BatchEnqueued consumer. */
    public static final String CONSUMER = "execution-triggers";

    /**
     * What a trigger led to; {@link #START} becomes started, queued or ignored once the runner has been asked, and
     * {@link #LAUNCH} launched once the launcher hook has; either is failed when that could not be done (after
     * retries).
     */
    public enum Outcome {
        START("started"), LAUNCH("launched"), NOT_DEPLOYED("not_deployed"), QUEUED("queued"), WAITING("waiting"),
        IGNORED("ignored"), FAILED("failed");

        private final String tag;

        Outcome(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    /**
     * A trigger's decision for a parent ({@code parentId} is null when the event named no parent this service knows);
     * a {@link Outcome#LAUNCH} carries what the launcher hook is to be told. {@code optedOut} marks the everyday
     * case of a parent whose trigger policy is none: it asked not to be started by arriving batches.
     */
    public record Decision(Long parentId, Outcome outcome, String why, LaunchRequest launch, boolean optedOut) {
        Decision(Long parentId, Outcome outcome, String why) {
            this(parentId, outcome, why, null, false);
        }
    }

    /** A parent's policy as the API shows it. */
    public record Policy(long processId, String policy) {
    }

    private final ProcessDefinitionRepository definitions;
    private final TriggerPolicyRepository policies;
    private final ProcessPermission permission;
    private final RunPolicyService jobs;
    private final RunnerService leases;
    private final BucketService buckets;
    private final DeploymentService deployments;
    private final Planner planner;
    private final ProcessedEventLedger ledger;
    private final ExternalLauncher launcher;

    public TriggerService(ProcessDefinitionRepository definitions, TriggerPolicyRepository policies,
                          ProcessPermission permission, RunPolicyService jobs, RunnerService leases,
                          BucketService buckets, DeploymentService deployments, Planner planner,
                          ProcessedEventLedger ledger, ExternalLauncher launcher) {
        this.ledger = ledger;
        this.launcher = launcher;
        this.definitions = definitions;
        this.policies = policies;
        this.permission = permission;
        this.jobs = jobs;
        this.leases = leases;
        this.buckets = buckets;
        this.deployments = deployments;
        this.planner = planner;
    }

    /**
     * Sets the policy of a live parent, whatever its workflow type: stand-alone parents are started on the runner,
     * and an Oozie or Airflow parent keeps its policy for the launcher that will start it.
     */
    @WithTransaction
    public Uni<Policy> save(Caller caller, long pid, TriggerPolicy policy) {
        return liveParent(caller, pid, Permission.EXECUTE)
                .chain(() -> policies.save(pid, policy))
                .map(saved -> new Policy(pid, policy.text()));
    }

    @WithSession
    public Uni<Policy> get(Caller caller, long pid) {
        return liveParent(caller, pid, Permission.READ)
                .chain(() -> policies.find(pid)).map(policy -> new Policy(pid, policy.text()));
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

    /**
     * Decides once what a batch enqueued for one of a parent's steps does to the parent; empty for a duplicate
     * delivery. A parent to start has its bucket recorded as INIT here; the caller asks the runner for the run after
     * the commit (the runner's claim is a transaction of its own).
     */
    @WithTransaction
    public Uni<Optional<Decision>> onBatch(BatchEnqueued event, LocalDateTime now) {
        AtomicReference<Decision> decided = new AtomicReference<>();
        return ledger.once(CONSUMER, event, () -> decide(event, now).invoke(decided::set))
                .map(applied -> applied ? Optional.of(decided.get()) : Optional.empty());
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

    /**
     * NOT_DEPLOYED for a triggered parent whose latest deployment did not succeed (its triggers start nothing), and
     * WAITING_FOR_ENQUEUERS for an all-enqueuers parent that some enqueuing process has not delivered to yet.
     */
    @Override
    public Uni<List<Planner.Reason>> reasons(long processId) {
        return policies.find(processId).chain(policy -> policy == TriggerPolicy.NONE
                ? Uni.createFrom().item(List.<Planner.Reason>of())
                : definitions.find(processId).chain(parent -> deployments.latest(processId).chain(latest -> {
                    List<Planner.Reason> reasons = new ArrayList<>();
                    notDeployed(processId, nameOf(parent), latest).ifPresent(reasons::add);
                    Uni<List<Planner.Reason>> withLaunch = policies.launchFailure(processId).map(failure -> {
                        failure.ifPresent(why -> reasons.add(new Planner.Reason("LAUNCH_FAILED", "launch failed: the "
                                + "launcher hook could not start parent " + processId + ": " + why)));
                        return reasons;
                    });
                    if (policy != TriggerPolicy.ALL_ENQUEUERS) {
                        return withLaunch;
                    }
                    return withLaunch.chain(() -> waitingFor(processId)).map(waiting -> {
                        waiting.ifPresent(reasons::add);
                        return reasons;
                    });
                })));
    }

    /** The reason an all-enqueuers parent is not due yet; empty when it is. */
    private Uni<Optional<Planner.Reason>> waitingFor(long parentId) {
        return definitions.stepsOf(parentId).map(AllEnqueuers::required).chain(required -> policies.delivered(parentId)
                .map(delivered -> AllEnqueuers.due(required, delivered) ? Optional.<Planner.Reason>empty()
                        : Optional.of(new Planner.Reason("WAITING_FOR_ENQUEUERS", required.isEmpty()
                        ? "waiting for enqueuers: parent " + parentId + " has policy all-enqueuers but its steps name "
                        + "no enqueuing process"
                        : "waiting for enqueuers: parent " + parentId + " starts when each of " + required
                        + " has delivered since its last triggered run; still missing "
                        + AllEnqueuers.missing(required, delivered)))));
    }

    private Uni<Decision> decide(BatchEnqueued event, LocalDateTime now) {
        long step = event.getConsumerProcessId();
        return definitions.find(step).chain(consumer -> {
            // the consumer is a step; a parent named directly is taken as itself
            Long parentId = consumer.map(c -> c.isParent() ? c.processId() : c.parentProcessId()).orElse(null);
            if (parentId == null) {
                return ignored(null, "process " + step + " is not known to execution-service");
            }
            return policies.find(parentId).chain(policy -> policy == TriggerPolicy.NONE
                    ? optedOut(parentId, "parent " + parentId + " has trigger policy " + policy.text())
                    : definitions.find(parentId).chain(parent -> {
                        if (parent.isEmpty() || parent.get().deleted()) {
                            return ignored(parentId, "parent " + parentId + " is not a live parent");
                        }
                        int type = parent.get().workflowTypeId();
                        if (type != Planner.STAND_ALONE) {
                            // Oozie and Airflow parents belong to an orchestrator: the launcher hook asks it
                            return !launcher.configured()
                                    ? ignored(parentId, "parent " + parentId + " has workflow type " + type
                                            + " and no launcher hook is configured (batchyard.trigger.launcher.kind)")
                                    : delivered(policy, parentId, event)
                                            .chain(() -> external(policy, parent.get(), type, event));
                        }
                        return jobs.job(parentId).chain(job -> job.filter(RunnerJob::enabled).isEmpty()
                                ? ignored(parentId, "parent " + parentId + " has no enabled run policy")
                                : delivered(policy, parentId, event)
                                        .chain(() -> deployed(policy, parent.get(), job.get(), event, now)));
                    }));
        });
    }

    /**
     * An all-enqueuers parent notes which enqueuing process delivered (whether or not it is deployed: a delivery is
     * data that arrived). A batch enqueued by hand names no source process and counts for none.
     */
    private Uni<Void> delivered(TriggerPolicy policy, long parentId, BatchEnqueued event) {
        if (policy != TriggerPolicy.ALL_ENQUEUERS || event.getSourceProcessId() == null) {
            return Uni.createFrom().voidItem();
        }
        return policies.recordDelivery(parentId, event.getSourceProcessId(), event.getSourceBatchId());
    }

    /** An Oozie or Airflow parent: deployed and (all-enqueuers) due, the launcher hook is to start it. */
    private Uni<Decision> external(TriggerPolicy policy, ProcessDefinition parent, int type, BatchEnqueued event) {
        long parentId = parent.processId();
        return deployments.latest(parentId).chain(latest -> {
            Optional<Planner.Reason> notDeployed = notDeployed(parentId, parent.name(), latest);
            if (notDeployed.isPresent()) {
                return Uni.createFrom().item(new Decision(parentId, Outcome.NOT_DEPLOYED, notDeployed.get().message()));
            }
            Decision launch = new Decision(parentId, Outcome.LAUNCH, null, new LaunchRequest(parentId, type,
                    LaunchRequest.typeName(type), String.valueOf(event.getHeader().getEventId()),
                    List.of(new LaunchRequest.Batch(event.getQueueId(), event.getSourceBatchId(),
                            event.getSourceProcessId(), event.getConsumerProcessId(), event.getBatchMarking()))), false);
            if (policy != TriggerPolicy.ALL_ENQUEUERS) {
                return Uni.createFrom().item(launch);
            }
            return waitingFor(parentId).chain(waiting -> waiting.isPresent()
                    ? Uni.createFrom().item(new Decision(parentId, Outcome.WAITING, waiting.get().message()))
                    : policies.clearDeliveries(parentId).replaceWith(launch));
        });
    }

    /** What the launcher hook answered, for /why: a failure stays a reason until a launch succeeds. */
    @WithTransaction
    public Uni<Void> launched(long parentId, Optional<String> failure) {
        return failure.map(why -> policies.recordLaunchFailure(parentId, why))
                .orElseGet(() -> policies.clearLaunchFailure(parentId));
    }

    private Uni<Decision> deployed(TriggerPolicy policy, ProcessDefinition parent, RunnerJob job, BatchEnqueued event,
                                   LocalDateTime now) {
        long parentId = parent.processId();
        return deployments.latest(parentId).chain(latest -> {
            Optional<Planner.Reason> notDeployed = notDeployed(parentId, parent.name(), latest);
            if (notDeployed.isPresent()) {
                return Uni.createFrom().item(new Decision(parentId, Outcome.NOT_DEPLOYED, notDeployed.get().message()));
            }
            if (policy == TriggerPolicy.ALL_ENQUEUERS) {
                return waitingFor(parentId).chain(waiting -> waiting.isPresent()
                        ? Uni.createFrom().item(new Decision(parentId, Outcome.WAITING, waiting.get().message()))
                        // the run about to start consumes what was delivered: the next one waits for new batches
                        : policies.clearDeliveries(parentId).chain(() -> start(parentId, job, event, now)));
            }
            return start(parentId, job, event, now);
        });
    }

    /** Records the trigger's bucket as INIT; the run starts now, or when the run in progress ends. */
    private Uni<Decision> start(long parentId, RunnerJob job, BatchEnqueued event, LocalDateTime now) {
        return bucketOf(job, event, now).chain(bucket -> bucket == null
                ? ignored(parentId, "the bucket key of parent " + parentId + " names no bucket now")
                : buckets.ensure(parentId, bucket).chain(() -> leases.leased(parentId))
                .chain(running -> running
                        ? policies.markPending(parentId).replaceWith(new Decision(parentId, Outcome.QUEUED,
                                "a run of parent " + parentId + " is in progress; its end starts the next one"))
                        : Uni.createFrom().item(new Decision(parentId, Outcome.START, null))));
    }

    /**
     * The bucket a trigger records: a job fed by explicit buckets gets one per source batch (a batch delivered to two
     * of its steps is one run), a job with a date pattern or bucket key the current one, as a schedule fire would.
     */
    private Uni<String> bucketOf(RunnerJob job, BatchEnqueued event, LocalDateTime now) {
        if (job.bucket() == null) {
            return Uni.createFrom().item("batch-" + event.getSourceBatchId());
        }
        return planner.bucketAt(job, now, new ArrayList<>());
    }

    /**
     * The words BDRE users know ({@code <name> has not been deployed. Please deploy it}), then why it counts as not
     * deployed: no deployment at all, or the state of the latest one with the reason it failed.
     */
    private static Optional<Planner.Reason> notDeployed(long parentId, String name, Optional<Deployment> latest) {
        if (Deployment.deployed(latest)) {
            return Optional.empty();
        }
        String state = latest.map(d -> "its latest deployment " + d.deploymentId() + " is " + d.status()
                + (d.status() == Deployment.Status.FAIL && d.message() != null ? ": " + d.message() : ""))
                .orElse("it has no deployment");
        return Optional.of(new Planner.Reason("NOT_DEPLOYED", (name == null || name.isBlank() ? "parent " + parentId
                : name) + " has not been deployed. Please deploy it (POST /processes/" + parentId + "/deployments): "
                + "parent " + parentId + " is started by its data only once its latest deployment succeeded, and "
                + state));
    }

    private static String nameOf(Optional<ProcessDefinition> process) {
        return process.map(ProcessDefinition::name).orElse(null);
    }

    private static Uni<Decision> ignored(Long parentId, String why) {
        return Uni.createFrom().item(new Decision(parentId, Outcome.IGNORED, why));
    }

    /** Ignored because the parent asked not to be started by arriving batches (trigger policy none). */
    private static Uni<Decision> optedOut(long parentId, String why) {
        return Uni.createFrom().item(new Decision(parentId, Outcome.IGNORED, why, null, true));
    }
}
