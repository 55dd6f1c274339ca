package io.batchyard.execution.runner;

import io.batchyard.api.ApiException;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.bucket.BucketPattern;
import io.batchyard.execution.bucket.BucketService;
import io.batchyard.execution.bucket.BucketStatus;
import io.batchyard.execution.bucket.BuiltinBucketKey;
import io.batchyard.execution.access.ProcessPermission;
import io.batchyard.persistence.InOrder;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Run policies of stand-alone parents, their bucket ledgers and the site's bucket keys: one transaction per call.
 * A policy and its ledger belong to the parent's application: reading them needs read there (to anyone else the
 * parent has no policy, 405, or is no stand-alone parent, 408, as for a process this service does not know), changing
 * them or launching needs execute (14).
 */
@ApplicationScoped
public class RunPolicyService {

    /** What a backfill recorded. */
    public record BackfillResult(long processId, int added, int alreadyKnown, List<String> buckets) {
    }

    /** A bucket as recorded, and whether this call added it. */
    public record Recorded(boolean added, BucketStatus bucket) {
    }

    private final ProcessDefinitionRepository definitions;
    private final RunnerJobRepository jobs;
    private final BucketService ledger;
    private final BucketKeyRepository keys;
    private final ProcessPermission permission;

    public RunPolicyService(ProcessDefinitionRepository definitions, RunnerJobRepository jobs, BucketService ledger,
                            BucketKeyRepository keys, ProcessPermission permission) {
        this.definitions = definitions;
        this.jobs = jobs;
        this.ledger = ledger;
        this.keys = keys;
        this.permission = permission;
    }

    /** The bucket ledgers of every process, counted by state ({@link BucketGauges}). */
    @WithSession
    public Uni<Map<BucketStatus.State, Long>> bucketsByStatus() {
        return ledger.countByStatus();
    }

    /** Saves a policy whose fields are already checked; the parent must be a live stand-alone parent. */
    @WithTransaction
    public Uni<RunnerJob> save(Caller caller, RunnerJob job) {
        long pid = job.processId();
        return permission.require(caller, pid, Permission.EXECUTE, () -> notLiveParent(pid))
                .chain(() -> definitions.find(pid))
                .invoke(parent -> requireStandAloneParent(parent, pid))
                .chain(() -> requireKnownBucket(job.bucket()))
                .chain(() -> jobs.save(job))
                .chain(() -> jobs.find(pid)).map(Optional::orElseThrow);
    }

    /**
     * 408 unless {@code pid} is a live parent of workflow type 2 that {@code caller} may read; {@link #save} checks
     * it again in its transaction.
     */
    @WithSession
    public Uni<Void> requireStandAloneParent(Caller caller, long pid) {
        return definitions.find(pid).invoke(parent -> {
            if (parent.isEmpty() || !parent.get().isParent() || parent.get().deleted()) {
                throw notLiveParent(pid);
            }
        }).call(() -> permission.require(caller, pid, Permission.READ, () -> notLiveParent(pid)))
                .invoke(parent -> requireStandAloneParent(parent, pid)).replaceWithVoid();
    }

    @WithSession
    public Uni<RunnerJob> get(Caller caller, long pid) {
        return permission.require(caller, pid, Permission.READ, () -> noPolicy(pid)).chain(() -> policy(pid));
    }

    /** The policy of a job the caller may run now: execute permission on its application. */
    @WithSession
    public Uni<RunnerJob> launchable(Caller caller, long pid) {
        return operable(caller, pid).chain(() -> policy(pid));
    }

    /** Deletes a policy; 405 when there was none. */
    @WithTransaction
    public Uni<Void> delete(Caller caller, long pid) {
        ApiException none = ExecutionError.NO_RUN_POLICY.exception("process " + pid + " has no run policy");
        return permission.require(caller, pid, Permission.EXECUTE, () -> none).chain(() -> jobs.delete(pid))
                .invoke(deleted -> {
                    if (!deleted) {
                        throw none;
                    }
                }).replaceWithVoid();
    }

    @WithSession
    public Uni<Page<BucketStatus>> buckets(Caller caller, long pid, BucketStatus.State state, PageRequest page) {
        return permission.require(caller, pid, Permission.READ, () -> noPolicy(pid)).chain(() -> policy(pid))
                .chain(() -> ledger.list(pid, state, page.limit(), page.offset()))
                .chain(items -> ledger.count(pid, state).map(total -> Page.of(items, total, page)));
    }

    /** Records a bucket as INIT unless it is known; it must be of the job's pattern when the job has one. */
    @WithTransaction
    public Uni<Recorded> addBucket(Caller caller, long pid, String bucket) {
        return operable(caller, pid).chain(() -> policy(pid))
                .invoke(job -> BucketPattern.of(job.bucket()).filter(p -> !p.matches(bucket)).ifPresent(p -> {
                    throw ExecutionError.INVALID_BUCKET.exception("process " + pid + " has " + p.text()
                            + " buckets; '" + bucket + "' is not one");
                }))
                .chain(() -> ledger.ensure(pid, bucket))
                .chain(added -> ledger.find(pid, bucket).map(row -> new Recorded(added, row.orElseThrow())));
    }

    /** Every bucket of the range as INIT; completed (and other known) buckets are left alone. */
    @WithTransaction
    public Uni<BackfillResult> backfill(Caller caller, long pid, String from, String to) {
        return operable(caller, pid).chain(() -> policy(pid)).chain(job -> {
            BucketPattern pattern = BucketPattern.of(job.bucket()).orElseThrow(() -> ExecutionError.INVALID_BUCKET
                    .exception("backfill needs a date-pattern bucket (YYYYMMDD or YYYYMMDDHH); process " + pid
                            + " has " + (job.bucket() == null ? "none" : job.bucket())));
            List<String> range;
            try {
                range = pattern.range(from, to);
            } catch (IllegalArgumentException e) {
                throw ExecutionError.INVALID_BUCKET.exception(e.getMessage());
            }
            return InOrder.map(range, b -> ledger.ensure(pid, b)).map(isNew -> {
                int added = (int) isNew.stream().filter(Boolean::booleanValue).count();
                return new BackfillResult(pid, added, range.size() - added, range);
            });
        });
    }

    /** FAILED → INIT; 407 for a bucket in any other state. */
    @WithTransaction
    public Uni<BucketStatus> retry(Caller caller, long pid, String bucket) {
        return operable(caller, pid).chain(() -> policy(pid))
                .chain(() -> ledger.move(pid, List.of(bucket), BucketStatus.State.FAILED, BucketStatus.State.INIT, null,
                        "retry requested"))
                .chain(moved -> ledger.find(pid, bucket).map(row -> {
                    if (moved != 1) {
                        String now = row.map(b -> b.status().name()).orElse("absent");
                        throw ExecutionError.BUCKET_NOT_RETRYABLE.exception("bucket " + bucket + " of process " + pid
                                + " is " + now + ", only a FAILED bucket can be retried");
                    }
                    return row.orElseThrow();
                }));
    }

    @WithTransaction
    public Uni<BucketKey> saveKey(BucketKey key) {
        return keys.save(key).replaceWith(key);
    }

    @WithSession
    public Uni<List<BucketKey>> keys() {
        return keys.all();
    }

    /** The parent's run policy, if it has one; in the caller's session and transaction. */
    public Uni<Optional<RunnerJob>> job(long pid) {
        return jobs.find(pid);
    }

    /** Which of these parents have a run policy, in one read; in the caller's session and transaction. */
    public Uni<Set<Long>> withPolicy(Collection<Long> pids) {
        return jobs.withPolicy(pids).map(Set::copyOf);
    }

    /** The key defined under /runner/bucket-keys, if any (case-insensitive); in the caller's session. */
    public Uni<Optional<BucketKey>> bucketKey(String key) {
        return keys.find(key);
    }

    private Uni<RunnerJob> policy(long pid) {
        return jobs.find(pid).map(job -> job.orElseThrow(() -> noPolicy(pid)));
    }

    /** Execute on the parent's application: what operating its runs needs; without read, it has no policy. */
    private Uni<Void> operable(Caller caller, long pid) {
        return permission.require(caller, pid, Permission.EXECUTE, () -> noPolicy(pid));
    }

    private static ApiException noPolicy(long pid) {
        return ExecutionError.NO_RUN_POLICY.exception("process " + pid + " has no run policy; PUT /runner/processes/"
                + pid + " first");
    }

    private static ApiException notLiveParent(long pid) {
        return ExecutionError.NOT_A_STAND_ALONE_PARENT.exception("process " + pid
                + " is not a live parent process (known to execution-service from the registry's events)");
    }

    private static void requireStandAloneParent(Optional<ProcessDefinition> parent, long pid) {
        if (parent.isEmpty() || !parent.get().isParent() || parent.get().deleted()) {
            throw notLiveParent(pid);
        }
        if (parent.get().workflowTypeId() != Planner.STAND_ALONE) {
            throw ExecutionError.NOT_A_STAND_ALONE_PARENT.exception("process " + pid + " has workflow type "
                    + parent.get().workflowTypeId() + "; only type " + Planner.STAND_ALONE + " (stand alone) is run by the runner");
        }
    }

    /** A bucket that is no pattern and no built-in key must be a key defined under /runner/bucket-keys. */
    private Uni<Void> requireKnownBucket(String bucket) {
        return requireKnownBucket(bucket, ExecutionError.INVALID_RUN_POLICY);
    }

    /**
     * The one rule for a bucket rule, a parent's or a group job's: a pattern, a built-in key or a key defined under
     * /runner/bucket-keys; otherwise {@code error}. Runs in the caller's session.
     */
    public Uni<Void> requireKnownBucket(String bucket, ExecutionError error) {
        if (bucket == null || BucketPattern.of(bucket).isPresent() || BuiltinBucketKey.of(bucket).isPresent()) {
            return Uni.createFrom().voidItem();
        }
        return keys.find(bucket).invoke(key -> {
            if (key.isEmpty()) {
                throw error.exception("bucket '" + bucket + "' is neither YYYYMMDD, YYYYMMDDHH, "
                        + "a built-in key " + List.of(BuiltinBucketKey.values()) + " nor a key defined under /runner/bucket-keys");
            }
        }).replaceWithVoid();
    }
}
