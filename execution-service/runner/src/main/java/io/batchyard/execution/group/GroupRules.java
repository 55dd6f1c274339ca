package io.batchyard.execution.group;

import io.batchyard.execution.bucket.BucketSelection;
import io.batchyard.execution.runner.JobSettings;
import io.batchyard.execution.runner.RunnerJob;
import java.util.List;
import java.util.Optional;

/** The pure rules of a group's jobs: which settings are valid, which buckets of its own ledger a job takes. */
public final class GroupRules {

    /** Longest query text a SQL bucket source may have (the column's own check). */
    public static final int MAX_SQL = 4000;

    private GroupRules() {
    }

    /** Where a job's buckets come from: its own rule, a query, or (neither) the run's. Both is an error. */
    public static JobSettings.BucketSource source(String bucket, String bucketSql) {
        boolean rule = bucket != null && !bucket.isBlank();
        boolean sql = bucketSql != null && !bucketSql.isBlank();
        if (rule && sql) {
            throw new IllegalArgumentException("a job takes its buckets from a rule (bucket) or a query (bucketSql), not both");
        }
        return rule ? JobSettings.BucketSource.RULE : sql ? JobSettings.BucketSource.SQL : JobSettings.BucketSource.INHERIT;
    }

    /** Why the settings cannot be saved, if they cannot. */
    public static Optional<String> whyInvalid(JobSettings job) {
        if (job.bucketSource() == JobSettings.BucketSource.SQL && job.bucketSql().strip().length() > MAX_SQL) {
            return Optional.of("bucketSql is longer than " + MAX_SQL + " characters");
        }
        if (job.bucketSource() == JobSettings.BucketSource.SQL && job.bucketSql().strip().replaceFirst(";\\s*$", "").contains(";")) {
            return Optional.of("bucketSql must be one statement (it runs read-only; no ';' inside)");
        }
        for (RunnerJob.Dependency d : job.dependencies() == null ? List.<RunnerJob.Dependency>of() : job.dependencies()) {
            if (d == null || d.processId() == null && (d.script() == null || d.script().isBlank())) {
                return Optional.of("a dependency needs a processId, a script or both");
            }
            if (d.processId() != null && d.processId() == job.stepId()) {
                return Optional.of("job " + job.stepId() + " cannot depend on itself");
            }
        }
        return Optional.empty();
    }

    /**
     * The buckets of its own ledger a job takes in one run: the oldest eligible one, or with the parent's
     * {@code batch} all of them up to its {@code maxBatchSize}. (The parent's exact match concerns the run's period,
     * which a job's own keys need not share, so it does not apply to a job's own ledger.)
     */
    public static List<String> select(List<String> eligible, RunnerJob parent) {
        return BucketSelection.select(eligible, false, parent.batch(), parent.maxBatchSize(), null);
    }
}
