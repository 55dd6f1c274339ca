package io.batchyard.execution.runner;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.execution.bucket.BucketService;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.execution.runs.FailureReason;
import io.batchyard.execution.runs.RunLifecycle;
import io.batchyard.execution.access.ProcessPermission;
import io.batchyard.execution.recovery.LastRecoverableStep;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The stand-alone runner's transactions: a cycle's claim (lease + buckets RUNNING + the plan's INIT rows, one
 * transaction), the lease's heartbeat and release, and a run's end recorded with its buckets. The runner's threads
 * call these and wait; the lifecycle calls of a run go to {@link RunLifecycle} directly.
 */
@ApplicationScoped
public class RunnerService {

    private static final Logger LOG = Logger.getLogger(RunnerService.class);

    private final Planner planner;
    private final WhyNotRunning why;
    private final RunnerJobRepository jobs;
    private final BucketService ledger;
    private final RunnerLeaseRepository leases;
    private final BucketKeyRepository keys;
    private final RunLifecycle lifecycle;
    private final RunnerConfig config;
    private final ProcessPermission permission;

    public RunnerService(Planner planner, WhyNotRunning why, RunnerJobRepository jobs, BucketService ledger,
                         RunnerLeaseRepository leases, BucketKeyRepository keys,
                         RunLifecycle lifecycle, RunnerConfig config, ProcessPermission permission) {
        this.permission = permission;
        this.planner = planner;
        this.why = why;
        this.jobs = jobs;
        this.ledger = ledger;
        this.leases = leases;
        this.keys = keys;
        this.lifecycle = lifecycle;
        this.config = config;
    }

    /** Plans and claims as {@code runner}; the claim commits with the plan's INIT rows. */
    @WithTransaction
    public Uni<Launcher.Cycle> claim(long processId, LocalDateTime now, String runner) {
        return leases.reapExpired(processId)
                .chain(dead -> dead.isPresent() ? recoverOrphan(dead.get()) : Uni.createFrom().voidItem())
                .chain(() -> planner.plan(processId, now, true))
                .chain(plan -> plan.runnable() ? claim(plan, runner)
                        : Uni.createFrom().item(new Launcher.Cycle(plan, Optional.empty(), Optional.empty())));
    }

    private Uni<Launcher.Cycle> claim(Planner.Plan plan, String runner) {
        long processId = plan.processId();
        return leases.claim(processId, runner, plan.buckets(), config.lease()).chain(claimed -> {
            if (!claimed) {
                plan.reasons().add(new Planner.Reason("ALREADY_RUNNING", "another runner claimed process " + processId));
                return Uni.createFrom().item(new Launcher.Cycle(new Planner.Plan(processId, List.of(),
                        plan.currentPeriod(), plan.reasons()), Optional.empty(), Optional.empty()));
            }
            return ledger.move(processId, plan.buckets(), State.INIT, State.RUNNING, null, null)
                    .chain(fromInit -> ledger.move(processId, plan.buckets(), State.FAILED, State.RUNNING, null, null)
                            .map(fromFailed -> fromInit + fromFailed))
                    .chain(moved -> {
                        if (moved != plan.buckets().size()) {
                            // The lease makes this unreachable unless rows were edited by hand; refuse rather than run twice.
                            throw new IllegalStateException("buckets " + plan.buckets() + " of process " + processId
                                    + " changed while being claimed");
                        }
                        return jobs.find(processId);
                    })
                    .map(job -> new Launcher.Cycle(plan, Optional.of(new Launcher.Claimed(job.orElseThrow(),
                            plan.buckets())), Optional.empty()));
        });
    }

    /**
     * A runner died holding the parent: its buckets go back to INIT and its run is terminated, so this claim's
     * InitJob resumes from the last recoverable step instead of being refused as already running.
     */
    private Uni<Void> recoverOrphan(RunnerLeaseRepository.Lease dead) {
        LOG.warnf("taking over process %d from runner %s, whose lease expired (buckets %s)", dead.processId(),
                dead.owner(), dead.buckets());
        return ledger.move(dead.processId(), dead.buckets(), State.RUNNING, State.INIT, null,
                        "runner " + dead.owner() + " lost its lease")
                .chain(() -> lifecycle.terminateOrphan(dead.processId(), dead.owner(), "runner:takeover"));
    }

    /** Extends the lease; false when it was lost (taken over after expiry). */
    @WithTransaction
    public Uni<Boolean> refreshLease(long processId, String runner) {
        return leases.refresh(processId, runner, config.lease());
    }

    @WithTransaction
    public Uni<Void> releaseLease(long processId, String runner) {
        return leases.release(processId, runner);
    }

    /** Leaves the run to another runner: the lease ends now, and whoever claims next cleans up and resumes it. */
    @WithTransaction
    public Uni<Void> expireLease(long processId, String runner) {
        return leases.expire(processId, runner);
    }

    /**
     * The claimed buckets wait again (INIT, the attempt uncounted) with {@code message}: InitJob was refused because a
     * service it needs did not answer, so the next tick starts them once it does.
     */
    @WithTransaction
    public Uni<Void> giveBack(long processId, List<String> buckets, String message) {
        return ledger.giveBack(processId, buckets, message).replaceWithVoid();
    }

    /** Names the run that works on the claimed buckets. */
    @WithTransaction
    public Uni<Void> attachRun(long processId, List<String> buckets, long instanceExecId) {
        return ledger.attachRun(processId, buckets, instanceExecId);
    }

    /** HaltJob with the buckets as its marking, and the buckets COMPLETE, in one transaction. */
    @WithTransaction
    public Uni<Void> complete(long processId, List<String> buckets, long instanceExecId) {
        return lifecycle.haltJob(processId, String.join(",", buckets))
                .chain(() -> ledger.move(processId, buckets, State.RUNNING, State.COMPLETE, instanceExecId, null))
                .replaceWithVoid();
    }

    /**
     * TermJob with {@code reason} (kept on the run) and the buckets FAILED with {@code message}, in one transaction. A
     * run that already ended (e.g. terminated by an operator) still records the failure on its buckets; the answer is
     * TermJob's refusal then, else empty.
     */
    @WithTransaction
    public Uni<Optional<String>> fail(long processId, List<String> buckets, Long instanceExecId, FailureReason reason,
                                      String message) {
        Uni<Optional<String>> termed = instanceExecId == null ? Uni.createFrom().item(Optional.empty())
                : lifecycle.termJob(processId, reason).map(ignored -> Optional.<String>empty())
                        .onFailure(ApiException.class).recoverWithItem(e -> Optional.of(e.getMessage()));
        return termed.call(() -> ledger.move(processId, buckets, State.RUNNING, State.FAILED, instanceExecId, message));
    }

    /** Which of these parents a runner holds the lease of (a run in progress); in the caller's session. */
    public Uni<Set<Long>> leasedAmong(Collection<Long> processIds) {
        return leases.leasedAmong(processIds);
    }

    /** Whether a runner holds the parent's lease, i.e. a run of it is in progress; in the caller's session. */
    public Uni<Boolean> leased(long processId) {
        return leases.find(processId).map(Optional::isPresent);
    }

    @WithSession
    public Uni<Optional<BucketKey>> bucketKey(String key) {
        return keys.find(key);
    }

    /** Completed step runs of the parent since its last success: what a resumed run may skip. */
    @WithSession
    public Uni<List<LastRecoverableStep.StepRun>> stepRunsSinceLastSuccess(long processId) {
        return lifecycle.stepRunsSinceLastSuccess(processId);
    }

    @WithSession
    public Uni<List<Long>> enabledWithWork() {
        return jobs.enabledWithWork();
    }

    /**
     * Why a parent (or one of its buckets) is not running, from the launcher's own rules; changes nothing. To a
     * caller who may not read the parent's application the answer is that of a process this service does not know.
     */
    @WithSession
    public Uni<WhyNotRunning.Explanation> explain(Caller caller, long processId, String bucket, LocalDateTime now) {
        return permission.allows(caller, processId, Permission.READ).chain(readable -> readable
                ? why.explain(processId, bucket, now) : why.unknown(processId, bucket));
    }
}
