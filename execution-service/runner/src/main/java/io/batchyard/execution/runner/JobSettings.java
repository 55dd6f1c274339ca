package io.batchyard.execution.runner;

import java.util.List;

/**
 * The settings of one job of a PWM group: a step of a stand-alone parent with its own enable flag, bucket rule,
 * dependencies and hooks (a row of runner_step_job). What it does not set, it takes from the parent's run policy:
 * {@code bucketSource} INHERIT runs the run's own buckets, {@code dependencies} null means the parent's.
 */
public record JobSettings(
        long stepId,
        long parentId,
        boolean enabled,
        BucketSource bucketSource,
        String bucket,
        String bucketSql,
        List<RunnerJob.Dependency> dependencies,
        RunnerJob.Hooks hooks) {

    /** Where a job's buckets come from. */
    public enum BucketSource {
        /** The buckets the parent's rule gave the run. */
        INHERIT,
        /** A pattern or bucket key of the job's own, as a parent's {@code bucket}. */
        RULE,
        /** The rows of a query on the read-only bucket datasource (PWM's {@code db_proc}). */
        SQL
    }

    /** The job's dependencies, or the parent's when it has none of its own. */
    public List<RunnerJob.Dependency> effectiveDependencies(RunnerJob parent) {
        return dependencies != null ? dependencies : parent.dependencies();
    }

    /** The parent's policy as this job's: its own id (ledger, PIPEJOBID), bucket rule and dependencies. */
    public RunnerJob asJob(RunnerJob parent) {
        return new RunnerJob(stepId, enabled, bucketSource == BucketSource.RULE ? bucket : parent.bucket(),
                parent.batch(), parent.exactMatch(), parent.maxBatchSize(), parent.retryFailed(), parent.retry(),
                parent.context(), parent.stepConcurrency(), parent.timeoutSeconds(), hooks,
                effectiveDependencies(parent), null);
    }
}
