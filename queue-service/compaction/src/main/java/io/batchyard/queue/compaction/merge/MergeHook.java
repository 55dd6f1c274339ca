package io.batchyard.queue.compaction.merge;

/**
 * Observation points inside one merge, for fault injection in tests (a worker "killed" mid-merge throws from here)
 * and for counting in the benchmark. Production uses {@link #NONE}.
 */
public interface MergeHook {

    MergeHook NONE = new MergeHook() {
    };

    /** Called every {@link RecordMerger#PROGRESS_EVERY} records written to the (still invisible) output. */
    default void recordsWritten(MergeJobClaim claim, MergePlan plan, long written) {
    }

    /** Called when the merged object is durable under its final key, before the range is committed. */
    default void objectWritten(MergeJobClaim claim, MergePlan plan) {
    }
}
