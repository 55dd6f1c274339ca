package io.batchyard.execution.runner;

import io.batchyard.persistence.Blocking;
import io.batchyard.execution.bucket.BucketPattern;
import io.batchyard.execution.bucket.BucketService;
import io.batchyard.execution.bucket.BucketSelection;
import io.batchyard.execution.bucket.BucketStatus;
import io.batchyard.execution.bucket.BuiltinBucketKey;
import io.batchyard.persistence.InOrder;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides what a parent would run now: resolve its bucket, select among the eligible ones, check dependencies. The
 * launcher acts on the plan; {@code GET /why} shows it. It runs in the caller's transaction; the scripts it runs
 * (bucket keys, dependency checks) run on worker threads meanwhile.
 */
@ApplicationScoped
public class Planner {

    /** Workflow type 2 of the registry: run by this runner rather than by Oozie. */
    public static final int STAND_ALONE = 2;
    private static final Duration CHECK_TIMEOUT = Duration.ofMinutes(5);

    /** Why something does or does not run. */
    public record Reason(String code, String message) {
    }

    /** The buckets one run would take, and every reason that held back anything. */
    public record Plan(long processId, List<String> buckets, String currentPeriod, List<Reason> reasons) {
        public boolean runnable() {
            return !buckets.isEmpty();
        }
    }

    private final ProcessDefinitionRepository definitions;
    private final RunnerJobRepository jobs;
    private final BucketService ledger;
    private final RunnerLeaseRepository leases;
    private final BucketKeyRepository keys;
    private final ScriptRunner scripts;
    private final StepLaunchers launchers;

    public Planner(ProcessDefinitionRepository definitions, RunnerJobRepository jobs, BucketService ledger,
                   RunnerLeaseRepository leases, BucketKeyRepository keys, ScriptRunner scripts,
                   StepLaunchers launchers) {
        this.definitions = definitions;
        this.jobs = jobs;
        this.ledger = ledger;
        this.leases = leases;
        this.keys = keys;
        this.scripts = scripts;
        this.launchers = launchers;
    }

    /**
     * @param ensure whether to record the job's current bucket as INIT (a launcher cycle does; an explanation must
     *               not change anything)
     */
    public Uni<Plan> plan(long processId, LocalDateTime now, boolean ensure) {
        return jobs.find(processId).chain(job -> definitions.find(processId).chain(parent -> {
            List<Reason> reasons = blockers(processId, job, parent);
            // nothing is claimed (no bucket moves) while no step could be launched: the runs wait, /why says why
            launchers.refusal().ifPresent(why -> reasons.add(new Reason("LAUNCHER_REFUSED", why)));
            if (!reasons.isEmpty()) {
                return Uni.createFrom().item(new Plan(processId, List.of(), null, reasons));
            }
            RunnerJob j = job.get();
            return currentBucket(j, now, reasons).chain(current -> {
                Uni<Boolean> recorded = ensure && current != null && j.schedule() == null
                        ? ledger.ensure(processId, current) : Uni.createFrom().item(false);
                return recorded.chain(() -> leases.find(processId)).chain(running -> {
                    if (running.isPresent()) {
                        reasons.add(new Reason("ALREADY_RUNNING", "a run of process " + processId + " holds buckets "
                                + running.get().buckets()));
                        return Uni.createFrom().item(new Plan(processId, List.of(), current, reasons));
                    }
                    return ledger.eligible(processId, j.retryFailed(), j.retry().maxAttempts())
                            .chain(eligible -> select(j, eligible, current, now, reasons));
                });
            });
        }));
    }

    private Uni<Plan> select(RunnerJob j, List<String> eligible, String current, LocalDateTime now, List<Reason> reasons) {
        long processId = j.processId();
        List<String> selected = BucketSelection.select(eligible, j.exactMatch(), j.batch(), j.maxBatchSize(),
                j.exactMatch() ? Optional.ofNullable(current).orElse(BucketPattern.DAILY.current(now)) : current);
        if (selected.isEmpty()) {
            reasons.add(eligible.isEmpty()
                    ? new Reason("NO_ELIGIBLE_BUCKET", "no bucket of process " + processId + " is waiting (INIT"
                            + (j.retryFailed() ? ", or FAILED with attempts left and its back-off over" : "") + ")")
                    : new Reason("NOT_CURRENT_PERIOD", "exact match: only the current period "
                            + (current == null ? BucketPattern.DAILY.current(now) : current) + " may run; waiting: " + eligible));
            return Uni.createFrom().item(new Plan(processId, List.of(), current, reasons));
        }
        List<String> runnable = new ArrayList<>();
        return checkInTurn(j, selected, 0, runnable, reasons)
                .map(done -> new Plan(processId, runnable, current, reasons));
    }

    /** Checks the selected buckets one after the other; without batch, the first blocked one stops the rest. */
    private Uni<Void> checkInTurn(RunnerJob j, List<String> selected, int i, List<String> runnable, List<Reason> reasons) {
        if (i == selected.size()) {
            return Uni.createFrom().voidItem();
        }
        String bucket = selected.get(i);
        return unmetDependencies(j, bucket).chain(unmet -> {
            if (unmet.isEmpty()) {
                runnable.add(bucket);
            } else {
                reasons.addAll(unmet);
                if (!j.batch()) {
                    return Uni.createFrom().voidItem();
                }
            }
            return checkInTurn(j, selected, i + 1, runnable, reasons);
        });
    }

    /** Everything that stops the parent as a whole: unknown, not stand-alone, disabled, no steps. */
    static List<Reason> blockers(long pid, Optional<RunnerJob> job, Optional<ProcessDefinition> parent) {
        List<Reason> reasons = new ArrayList<>();
        if (parent.isEmpty() || !parent.get().isParent() || parent.get().deleted()) {
            reasons.add(new Reason("UNKNOWN_PROCESS", "process " + pid + " is not a live parent process in the registry"));
        } else if (parent.get().workflowTypeId() != STAND_ALONE) {
            reasons.add(new Reason("NOT_STAND_ALONE", "process " + pid + " has workflow type "
                    + parent.get().workflowTypeId() + "; the runner runs type " + STAND_ALONE + " (stand alone)"));
        }
        if (job.isEmpty()) {
            reasons.add(new Reason("NO_RUN_POLICY", "process " + pid + " has no run policy: PUT /runner/processes/" + pid));
        } else if (!job.get().enabled()) {
            reasons.add(new Reason("DISABLED", "process " + pid + " is disabled"));
        }
        return reasons;
    }

    /** The bucket a schedule fire at {@code at} records: the job's bucket then, or that day for a job without one. */
    public Uni<String> bucketAt(RunnerJob job, LocalDateTime at, List<Reason> reasons) {
        return job.bucket() == null ? Uni.createFrom().item(BucketPattern.DAILY.current(at))
                : currentBucket(job, at, reasons);
    }

    /** The bucket the clock or the bucket key names now, or null for a job fed by explicitly added buckets. */
    public Uni<String> currentBucket(RunnerJob job, LocalDateTime now, List<Reason> reasons) {
        if (job.bucket() == null) {
            return Uni.createFrom().nullItem();
        }
        Optional<BucketPattern> pattern = BucketPattern.of(job.bucket());
        if (pattern.isPresent()) {
            return Uni.createFrom().item(pattern.get().current(now));
        }
        return keys.find(job.bucket()).chain(registered -> {
            if (registered.isPresent()) {
                BucketKey key = registered.get();
                return Blocking.blocking(() -> scripts.valueOf(key.script(), List.of(),
                        Map.of("PIPEJOBID", Long.toString(job.processId()), "PIPEJOBSCRIPT", key.script()),
                        CHECK_TIMEOUT)).map(value -> {
                            if (value.isEmpty() || value.get().isBlank()) {
                                reasons.add(new Reason("BUCKET_UNRESOLVED", "bucket key " + job.bucket() + ": script "
                                        + key.script() + " failed or printed nothing"));
                                return null;
                            }
                            return value.get().replaceAll("\\s+", " ");
                        });
            }
            Optional<BuiltinBucketKey> builtin = BuiltinBucketKey.of(job.bucket());
            if (builtin.isPresent()) {
                return Uni.createFrom().item(builtin.get().resolve(now));
            }
            reasons.add(new Reason("BUCKET_UNRESOLVED", "bucket key " + job.bucket() + " is neither a pattern, a built-in "
                    + "key nor registered under /runner/bucket-keys"));
            return Uni.createFrom().nullItem();
        });
    }

    /** Dependencies of {@code bucket} that do not hold (all must: AND), checked in their order. */
    public Uni<List<Reason>> unmetDependencies(RunnerJob job, String bucket) {
        List<Reason> unmet = new ArrayList<>();
        return InOrder.each(job.dependencies(), d -> d.script() == null ? parentDone(d.processId(), bucket, unmet)
                : checkScript(job, d, bucket, unmet)).map(done -> unmet);
    }

    private Uni<Void> parentDone(long processId, String bucket, List<Reason> unmet) {
        return ledger.find(processId, bucket).invoke(row -> {
            if (row.map(b -> b.status() != BucketStatus.State.COMPLETE).orElse(true)) {
                String state = row.map(BucketStatus::status).map(Enum::name).orElse("absent");
                unmet.add(new Reason("UNMET_DEPENDENCY", "bucket " + bucket + " of process " + processId
                        + " is " + state + ", not COMPLETE"));
            }
        }).replaceWithVoid();
    }

    private Uni<Void> checkScript(RunnerJob job, RunnerJob.Dependency d, String bucket, List<Reason> unmet) {
        List<String> args = d.processId() == null ? List.of(bucket) : List.of(bucket, d.processId().toString());
        return Blocking.blocking(() -> scripts.run(d.script(), args, Map.of("PIPEJOBID", Long.toString(job.processId()),
                "PIPEJOBSCRIPT", d.script()), CHECK_TIMEOUT, (stream, line) -> { })).invoke(r -> {
                    if (!r.succeeded()) {
                        unmet.add(new Reason("UNMET_DEPENDENCY", "check " + d.script() + " " + String.join(" ", args)
                                + " says not yet (" + r.describe() + ")"));
                    }
                }).replaceWithVoid();
    }
}
