package io.batchyard.execution.runner;

import java.util.List;
import java.util.Map;

/**
 * PWM job groups: the steps of a stand-alone parent as independent jobs, each with its own enable flag, bucket rule,
 * dependencies and hooks. Implemented by the group package (which depends on this one, not the other way round);
 * {@link WorkflowExecution} asks it, per step, whether and for which buckets the step runs in this run. The methods
 * block (they wait for their transactions), so they are called on the runner's threads only.
 */
public interface GroupJobs {

    /** What one job does in a run: skip (and why), or run for its buckets, with these bucket arguments and hooks. */
    record JobRun(long stepId, boolean run, List<String> buckets, List<String> bucketArguments, RunnerJob.Hooks hooks,
                  String skipReason) {

        public static JobRun skip(long stepId, String reason) {
            return new JobRun(stepId, false, List.of(), List.of(), RunnerJob.Hooks.NONE, reason);
        }
    }

    /** The steps of the parent that have settings of their own (the others run exactly as before). */
    Map<Long, JobSettings> jobsOf(long parentId);

    /**
     * Decides and claims a job's buckets for this run (its own ledger rows INIT/FAILED → RUNNING); a disabled job, one
     * without an eligible bucket or with an unmet dependency is skipped, and its buckets stay as they are.
     */
    JobRun claim(RunnerJob parent, JobSettings job, List<String> runBuckets);

    /** Records the job's end on its own ledger: COMPLETE, or FAILED with the message. */
    void finish(JobRun run, long instanceExecId, boolean ok, String message);
}
