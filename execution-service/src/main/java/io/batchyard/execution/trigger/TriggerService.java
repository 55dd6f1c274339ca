package io.batchyard.execution.trigger;

import io.batchyard.api.access.Caller;
import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.bucket.BucketRepository;
import io.batchyard.execution.deployment.Deployment;
import io.batchyard.execution.deployment.DeploymentRepository;
import io.batchyard.execution.lifecycle.ExecutePermission;
import io.batchyard.execution.runner.MoreReasons;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.RunnerJob;
import io.batchyard.execution.runner.RunnerJobRepository;
import io.batchyard.execution.runner.RunnerLeaseRepository;
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

    /** What a trigger led to; {@link #START} becomes started, queued or ignored once the runner has been asked. */
    public enum Outcome {
        START("started"), NOT_DEPLOYED("not_deployed"), QUEUED("queued"), IGNORED("ignored");

        private final String tag;

        Outcome(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    /** A trigger's decision for a parent ({@code parentId} is null when the event named no parent this service knows). */
    public record Decision(Long parentId, Outcome outcome, String why) {
    }

    /** A parent's policy as the API shows it. */
    public record Policy(long processId, String policy) {
    }

    private final ProcessDefinitionRepository definitions;
    private final TriggerPolicyRepository policies;
    private final ExecutePermission permission;
    private final RunnerJobRepository jobs;
    private final RunnerLeaseRepository leases;
    private final BucketRepository buckets;
    private final DeploymentRepository deployments;
    private final Planner planner;
    private final ProcessedEventLedger ledger;

    public TriggerService(ProcessDefinitionRepository definitions, TriggerPolicyRepository policies,
                          ExecutePermission permission, RunnerJobRepository jobs, RunnerLeaseRepository leases,
                          BucketRepository buckets, DeploymentRepository deployments, Planner planner,
                          ProcessedEventLedger ledger) {
        this.ledger = ledger;
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
        return definitions.find(pid).invoke(parent -> requireLiveParent(parent, pid))
                .chain(() -> permission.requireKnown(caller, pid))
                .chain(() -> policies.save(pid, policy))
                .map(saved -> new Policy(pid, policy.text()));
    }

    @WithSession
    public Uni<Policy> get(long pid) {
        return definitions.find(pid).invoke(parent -> requireLiveParent(parent, pid))
                .chain(() -> policies.find(pid)).map(policy -> new Policy(pid, policy.text()));
    }

    private static void requireLiveParent(Optional<ProcessDefinition> parent, long pid) {
        if (parent.isEmpty() || !parent.get().isParent() || parent.get().deleted()) {
            throw ExecutionError.NOT_A_TRIGGERABLE_PROCESS.exception("process " + pid
                    + " is not a live parent process (known to execution-service from the registry's events)");
        }
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

    /** NOT_DEPLOYED for an on-batch parent whose latest deployment did not succeed: its triggers start nothing. */
    @Override
    public Uni<List<Planner.Reason>> reasons(long processId) {
        return policies.find(processId).chain(policy -> policy != TriggerPolicy.ON_BATCH
                ? Uni.createFrom().item(List.<Planner.Reason>of())
                : deployments.latest(processId).map(latest -> notDeployed(processId, latest).map(List::of)
                        .orElse(List.of())));
    }

    private Uni<Decision> decide(BatchEnqueued event, LocalDateTime now) {
        long step = event.getConsumerProcessId();
        return definitions.find(step).chain(consumer -> {
            // the consumer is a step; a parent named directly is taken as itself
            Long parentId = consumer.map(c -> c.isParent() ? c.processId() : c.parentProcessId()).orElse(null);
            if (parentId == null) {
                return ignored(null, "process " + step + " is not known to execution-service");
            }
            return policies.find(parentId).chain(policy -> policy != TriggerPolicy.ON_BATCH
                    ? ignored(parentId, "parent " + parentId + " has trigger policy " + policy.text())
                    : definitions.find(parentId).chain(parent -> {
                        if (parent.isEmpty() || parent.get().deleted()
                                || parent.get().workflowTypeId() != Planner.STAND_ALONE) {
                            // Oozie and Airflow parents need a launcher hook, which does not exist yet
                            return ignored(parentId, "parent " + parentId + " is not a live stand-alone parent");
                        }
                        return jobs.find(parentId).chain(job -> job.filter(RunnerJob::enabled).isEmpty()
                                ? ignored(parentId, "parent " + parentId + " has no enabled run policy")
                                : deployed(parentId, job.get(), event, now));
                    }));
        });
    }

    private Uni<Decision> deployed(long parentId, RunnerJob job, BatchEnqueued event, LocalDateTime now) {
        return deployments.latest(parentId).chain(latest -> {
            Optional<Planner.Reason> notDeployed = notDeployed(parentId, latest);
            if (notDeployed.isPresent()) {
                return Uni.createFrom().item(new Decision(parentId, Outcome.NOT_DEPLOYED, notDeployed.get().message()));
            }
            return bucketOf(job, event, now).chain(bucket -> bucket == null
                    ? ignored(parentId, "the bucket key of parent " + parentId + " names no bucket now")
                    : buckets.ensure(parentId, bucket).chain(() -> leases.find(parentId))
                    .chain(running -> running.isPresent()
                            ? policies.markPending(parentId).replaceWith(new Decision(parentId, Outcome.QUEUED,
                                    "a run of parent " + parentId + " is in progress; its end starts the next one"))
                            : Uni.createFrom().item(new Decision(parentId, Outcome.START, null))));
        });
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

    private static Optional<Planner.Reason> notDeployed(long parentId, Optional<Deployment> latest) {
        if (Deployment.deployed(latest)) {
            return Optional.empty();
        }
        return Optional.of(new Planner.Reason("NOT_DEPLOYED", "not deployed: parent " + parentId + " is triggered only "
                + "when its latest deployment succeeded; " + latest.map(d -> "latest deployment " + d.deploymentId()
                + " is " + d.status()).orElse("no deployment")));
    }

    private static Uni<Decision> ignored(Long parentId, String why) {
        return Uni.createFrom().item(new Decision(parentId, Outcome.IGNORED, why));
    }
}
