package io.batchyard.execution.runner;

import io.batchyard.execution.bucket.BucketLedger;
import io.batchyard.execution.bucket.BucketPattern;
import io.batchyard.execution.bucket.BucketSelection;
import io.batchyard.execution.bucket.BucketStatus;
import io.batchyard.execution.bucket.BuiltinBucketKey;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Decides what a parent would run now (spec B.3.2-B.3.5): resolve its bucket, select among the eligible ones, check
 * dependencies. The launcher acts on the plan; {@code GET /why} shows it.
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

    @Inject
    ProcessDefinitions definitions;

    @Inject
    RunnerJobs jobs;

    @Inject
    BucketLedger ledger;

    @Inject
    RunnerLeases leases;

    @Inject
    ScriptRunner scripts;

    /**
     * @param ensure whether to record the job's current bucket as INIT (a launcher cycle does; an explanation must
     *               not change anything)
     */
    public Plan plan(Handle h, long processId, LocalDateTime now, boolean ensure) {
        Optional<RunnerJob> job = jobs.find(h, processId);
        List<Reason> reasons = blockers(processId, job, definitions.find(h, processId));
        if (!reasons.isEmpty()) {
            return new Plan(processId, List.of(), null, reasons);
        }
        RunnerJob j = job.get();
        String current = currentBucket(h, j, now, reasons);
        if (ensure && current != null && j.schedule() == null) {
            ledger.ensure(h, processId, current);
        }
        Optional<RunnerLeases.Lease> running = leases.find(h, processId);
        if (running.isPresent()) {
            reasons.add(new Reason("ALREADY_RUNNING", "a run of process " + processId + " holds buckets "
                    + running.get().buckets()));
            return new Plan(processId, List.of(), current, reasons);
        }
        List<String> eligible = ledger.eligible(h, processId, j.retryFailed());
        List<String> selected = BucketSelection.select(eligible, j.exactMatch(), j.batch(), j.maxBatchSize(),
                j.exactMatch() ? Optional.ofNullable(current).orElse(BucketPattern.DAILY.current(now)) : current);
        if (selected.isEmpty()) {
            reasons.add(eligible.isEmpty()
                    ? new Reason("NO_ELIGIBLE_BUCKET", "no bucket of process " + processId + " is waiting (INIT"
                            + (j.retryFailed() ? " or FAILED" : "") + ")")
                    : new Reason("NOT_CURRENT_PERIOD", "exact match: only the current period "
                            + (current == null ? BucketPattern.DAILY.current(now) : current) + " may run; waiting: " + eligible));
            return new Plan(processId, List.of(), current, reasons);
        }
        List<String> runnable = new ArrayList<>();
        for (String bucket : selected) {
            List<Reason> unmet = unmetDependencies(h, j, bucket);
            if (unmet.isEmpty()) {
                runnable.add(bucket);
            } else {
                reasons.addAll(unmet);
                if (!j.batch()) {
                    break;
                }
            }
        }
        return new Plan(processId, runnable, current, reasons);
    }

    /** Everything that stops the parent as a whole: unknown, not stand-alone, disabled, no steps. */
    private static List<Reason> blockers(long pid, Optional<RunnerJob> job, Optional<ProcessDefinition> parent) {
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
    public String bucketAt(Handle h, RunnerJob job, LocalDateTime at, List<Reason> reasons) {
        return job.bucket() == null ? BucketPattern.DAILY.current(at) : currentBucket(h, job, at, reasons);
    }

    /** The bucket the clock or the bucket key names now, or null for a job fed by explicitly added buckets. */
    String currentBucket(Handle h, RunnerJob job, LocalDateTime now, List<Reason> reasons) {
        if (job.bucket() == null) {
            return null;
        }
        Optional<BucketPattern> pattern = BucketPattern.of(job.bucket());
        if (pattern.isPresent()) {
            return pattern.get().current(now);
        }
        Optional<BucketKeys.Key> registered = BucketKeys.find(h, job.bucket());
        if (registered.isPresent()) {
            Optional<String> value = scripts.valueOf(registered.get().script(), List.of(),
                    Map.of("PIPEJOBID", Long.toString(job.processId()), "PIPEJOBSCRIPT", registered.get().script()),
                    CHECK_TIMEOUT);
            if (value.isEmpty() || value.get().isBlank()) {
                reasons.add(new Reason("BUCKET_UNRESOLVED", "bucket key " + job.bucket() + ": script "
                        + registered.get().script() + " failed or printed nothing"));
                return null;
            }
            return value.get().replaceAll("\\s+", " ");
        }
        Optional<BuiltinBucketKey> builtin = BuiltinBucketKey.of(job.bucket());
        if (builtin.isPresent()) {
            return builtin.get().resolve(now);
        }
        reasons.add(new Reason("BUCKET_UNRESOLVED", "bucket key " + job.bucket() + " is neither a pattern, a built-in "
                + "key nor registered under /runner/bucket-keys"));
        return null;
    }

    /** Dependencies of {@code bucket} that do not hold (all must: AND). */
    List<Reason> unmetDependencies(Handle h, RunnerJob job, String bucket) {
        List<Reason> unmet = new ArrayList<>();
        for (RunnerJob.Dependency d : job.dependencies()) {
            if (d.script() == null) {
                if (!ledger.complete(h, d.processId(), bucket)) {
                    String state = ledger.find(h, d.processId(), bucket).map(BucketStatus::status).map(Enum::name)
                            .orElse("absent");
                    unmet.add(new Reason("UNMET_DEPENDENCY", "bucket " + bucket + " of process " + d.processId()
                            + " is " + state + ", not COMPLETE"));
                }
                continue;
            }
            List<String> args = d.processId() == null ? List.of(bucket) : List.of(bucket, d.processId().toString());
            CommandResult r = scripts.run(d.script(), args, Map.of("PIPEJOBID", Long.toString(job.processId()),
                    "PIPEJOBSCRIPT", d.script()), CHECK_TIMEOUT, (stream, line) -> { });
            if (!r.succeeded()) {
                unmet.add(new Reason("UNMET_DEPENDENCY", "check " + d.script() + " " + String.join(" ", args)
                        + " says not yet (" + r.describe() + ")"));
            }
        }
        return unmet;
    }
}
