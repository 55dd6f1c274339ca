package io.batchyard.execution.group;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.bucket.BucketService;
import io.batchyard.execution.bucket.BucketStatus;
import io.batchyard.execution.bucket.BucketStatus.State;
import io.batchyard.execution.bucket.ParamFormat;
import io.batchyard.execution.access.ProcessPermission;
import io.batchyard.execution.runner.BucketKey;
import io.batchyard.execution.runner.GroupJobs;
import io.batchyard.execution.runner.JobSettings;
import io.batchyard.execution.runner.Planner;
import io.batchyard.execution.runner.RunPolicyService;
import io.batchyard.execution.runner.RunnerJob;
import io.batchyard.persistence.InOrder;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The settings of a group's jobs (one transaction per call) and the transactions of a job's own bucket ledger. */
@ApplicationScoped
public class GroupService {

    /** A job's settings as they apply: its own where it has them, the parent's otherwise. */
    public record JobView(long stepId, long parentId, boolean ownSettings, boolean enabled,
                          JobSettings.BucketSource bucketSource, String bucket, String bucketSql,
                          boolean dependenciesInherited, List<RunnerJob.Dependency> dependencies, RunnerJob.Hooks hooks) {
    }

    private final ProcessDefinitionRepository definitions;
    private final StepJobRepository jobs;
    private final BucketService ledger;
    private final BucketSourceRepository sql;
    private final Planner planner;
    private final ProcessPermission permission;
    private final RunPolicyService runPolicies;

    public GroupService(ProcessDefinitionRepository definitions, StepJobRepository jobs, BucketService ledger,
                        BucketSourceRepository sql, Planner planner, ProcessPermission permission,
                        RunPolicyService runPolicies) {
        this.definitions = definitions;
        this.jobs = jobs;
        this.ledger = ledger;
        this.sql = sql;
        this.planner = planner;
        this.permission = permission;
        this.runPolicies = runPolicies;
    }

    /** A job's settings: read on the group's (the parent's) application; to anyone else it is no job of it (431). */
    @WithSession
    public Uni<JobView> view(Caller caller, long pid, long sid) {
        return permission.require(caller, pid, Permission.READ, () -> notAJob(pid, sid))
                .chain(() -> parentPolicy(pid, sid)).chain(parent -> jobs.find(sid).map(own -> view(parent, sid, own)));
    }

    /**
     * Saves a job's settings: the step must be a live step of a stand-alone parent with a run policy, a rule must be
     * a known pattern or key, and a query must run (read-only) on the bucket datasource.
     */
    @WithTransaction
    public Uni<JobView> save(Caller caller, long pid, JobSettings job) {
        GroupRules.whyInvalid(job).ifPresent(why -> {
            throw ExecutionError.INVALID_JOB_SETTINGS.exception(why);
        });
        return permission.require(caller, pid, Permission.EXECUTE, () -> notAJob(pid, job.stepId()))
                .chain(() -> parentPolicy(pid, job.stepId()))
                .call(parent -> requireKnownRule(job))
                .call(parent -> tryQuery(job))
                .call(parent -> jobs.save(job))
                .chain(parent -> jobs.find(job.stepId()).map(own -> view(parent, job.stepId(), own)));
    }

    @WithSession
    public Uni<List<JobSettings>> jobsOf(long pid) {
        return jobs.ofParent(pid);
    }

    /** The bucket a job's own rule names now (empty when it cannot be resolved now: older buckets may still run). */
    @WithSession
    public Uni<List<String>> currentOfRule(RunnerJob parent, JobSettings job, LocalDateTime now) {
        return planner.currentBucket(job.asJob(parent), now, new ArrayList<>())
                .map(b -> b == null ? List.<String>of() : List.of(b));
    }

    /**
     * Records the candidates as INIT in the job's own ledger, selects among its eligible buckets, checks the job's
     * dependencies, and moves what runs to RUNNING; otherwise the answer says why the job is skipped.
     */
    @WithTransaction
    public Uni<GroupJobs.JobRun> claim(RunnerJob parent, JobSettings job, List<String> candidates) {
        long sid = job.stepId();
        // The parent's lease makes this run the only one of the group: a RUNNING bucket of the job is left over by a
        // run whose runner died, and waits again.
        Uni<Void> ensured = ledger.list(sid, State.RUNNING, 1000, 0)
                .chain(left -> ledger.move(sid, left.stream().map(BucketStatus::bucket).toList(), State.RUNNING,
                        State.INIT, null, "the run that ran it ended without recording it"))
                .replaceWithVoid();
        return ensured.chain(() -> InOrder.each(candidates, c -> ledger.ensure(sid, c)))
                .chain(() -> ledger.eligible(sid, parent.retryFailed(), parent.retry().maxAttempts()))
                .chain(eligible -> {
                    List<String> selected = GroupRules.select(eligible, parent);
                    if (selected.isEmpty()) {
                        return Uni.createFrom().item(GroupJobs.JobRun.skip(sid, "no bucket of job " + sid + " is waiting"));
                    }
                    List<String> runnable = new ArrayList<>();
                    List<String> unmet = new ArrayList<>();
                    Uni<Void> checks = InOrder.each(selected, b -> !parent.batch() && !unmet.isEmpty()
                            ? Uni.createFrom().voidItem()
                            : planner.unmetDependencies(job.asJob(parent), b).invoke(reasons -> {
                                if (reasons.isEmpty()) {
                                    runnable.add(b);
                                } else {
                                    reasons.forEach(r -> unmet.add(r.message()));
                                }
                            }));
                    return checks.chain(() -> {
                        if (runnable.isEmpty() || !parent.batch() && !unmet.isEmpty()) {
                            return Uni.createFrom().item(GroupJobs.JobRun.skip(sid, "unmet dependency: "
                                    + String.join("; ", unmet)));
                        }
                        return ledger.move(sid, runnable, State.INIT, State.RUNNING, null, null)
                                .chain(() -> ledger.move(sid, runnable, State.FAILED, State.RUNNING, null, null))
                                .chain(() -> arguments(job, runnable))
                                .map(args -> new GroupJobs.JobRun(sid, true, runnable, args, job.hooks(), null));
                    });
                });
    }

    @WithTransaction
    public Uni<Void> finish(long sid, List<String> buckets, long instanceExecId, boolean ok, String message) {
        return ledger.move(sid, buckets, State.RUNNING, ok ? State.COMPLETE : State.FAILED, instanceExecId, message)
                .replaceWithVoid();
    }

    /** Bucket arguments in ascending order; a registered key of the job's own rule shapes them with its format. */
    private Uni<List<String>> arguments(JobSettings job, List<String> buckets) {
        Uni<Optional<BucketKey>> key = job.bucketSource() == JobSettings.BucketSource.RULE
                ? runPolicies.bucketKey(job.bucket()) : Uni.createFrom().item(Optional.empty());
        return key.map(k -> {
            List<String> args = new ArrayList<>();
            buckets.stream().sorted().forEach(b -> args.addAll(ParamFormat.arguments(b,
                    k.map(BucketKey::paramFormat).orElse(null))));
            return args;
        });
    }

    /** 431 unless {@code sid} is a live step of {@code pid} and the parent has a run policy. */
    private Uni<RunnerJob> parentPolicy(long pid, long sid) {
        return definitions.find(sid).chain(step -> {
            if (step.isEmpty() || step.get().deleted() || step.get().parentProcessId() == null
                    || step.get().parentProcessId() != pid) {
                throw notAJob(pid, sid);
            }
            return runPolicies.job(pid).map(p -> p.orElseThrow(() -> ExecutionError.NOT_A_JOB_OF_THE_GROUP.exception(
                    "parent " + pid + " has no run policy; PUT /runner/processes/" + pid + " first")));
        });
    }

    private static ApiException notAJob(long pid, long sid) {
        return ExecutionError.NOT_A_JOB_OF_THE_GROUP.exception("process " + sid + " is not a live step of parent "
                + pid);
    }

    private Uni<Void> requireKnownRule(JobSettings job) {
        return job.bucketSource() != JobSettings.BucketSource.RULE ? Uni.createFrom().voidItem()
                : runPolicies.requireKnownBucket(job.bucket(), ExecutionError.INVALID_JOB_SETTINGS);
    }

    /** A query is run once, read-only, when saved: a typo is a 430 now, not a failed bucket at night. */
    private Uni<Void> tryQuery(JobSettings job) {
        if (job.bucketSource() != JobSettings.BucketSource.SQL) {
            return Uni.createFrom().voidItem();
        }
        if (!sql.configured()) {
            throw ExecutionError.NO_BUCKET_DATASOURCE.exception("job " + job.stepId() + " takes its buckets from a "
                    + "query, but batchyard.bucket-datasource.url is not set");
        }
        return sql.keys(job.bucketSql()).onFailure().transform(e -> ExecutionError.INVALID_JOB_SETTINGS.exception(
                "bucketSql failed on the bucket datasource: " + e.getMessage())).replaceWithVoid();
    }

    private static JobView view(RunnerJob parent, long sid, Optional<JobSettings> own) {
        if (own.isEmpty()) {
            return new JobView(sid, parent.processId(), false, true, JobSettings.BucketSource.INHERIT, null, null, true,
                    parent.dependencies(), RunnerJob.Hooks.NONE);
        }
        JobSettings j = own.get();
        return new JobView(sid, parent.processId(), true, j.enabled(), j.bucketSource(), j.bucket(), j.bucketSql(),
                j.dependencies() == null, j.effectiveDependencies(parent), j.hooks());
    }
}
