package io.batchyard.execution.backfill;

import java.util.List;

/**
 * One unit of a backfill plan: re-run {@code processId} for {@code bucket} on {@code inputBatchIds}, replacing run
 * {@code replacedRunId} (null when the bucket never ran: {@code MISSING}). {@code level} 0 are the roots; an entry
 * runs once every entry it consumed from (a lower level) has ended. {@code reason} is the chain from a root to this
 * entry, each link a process, its run and the batch it consumed from the link before (null for the root). {@code estimatedMs}: the median
 * of the process's recent successful runs, null without any. {@code consumes}: every entry of the plan this one
 * consumed from, and the batch it consumed (that entry's replaced run's output): the entries it waits for, and the
 * batches whose re-made versions it re-runs on; an entry consumed from that was pruned is not among them (its batch is
 * consumed as it is). {@code pruned}: why the entry does not run, when a root names columns whose lineage does not
 * reach it (null: it runs).
 */
public record PlanEntry(int entryNo, int level, long processId, String bucket, Long replacedRunId,
                        List<Long> inputBatchIds, String status, boolean root, List<ReasonLink> reason,
                        Long estimatedMs, List<Consumed> consumes, String pruned) {

    /** Whether the backfill re-runs it. */
    public boolean runs() {
        return pruned == null;
    }

    PlanEntry pruned(String why) {
        return new PlanEntry(entryNo, level, processId, bucket, replacedRunId, inputBatchIds, status, root, reason,
                estimatedMs, consumes, why);
    }

    PlanEntry consuming(List<Consumed> only) {
        return new PlanEntry(entryNo, level, processId, bucket, replacedRunId, inputBatchIds, status, root, reason,
                estimatedMs, List.copyOf(only), pruned);
    }

    /** Batch {@code batchId}, the output of entry {@code entryNo}'s replaced run. */
    public record Consumed(int entryNo, long batchId) {
    }

    /** A step of a reason chain: {@code processId}'s run {@code runId}, which consumed {@code batchId}. */
    public record ReasonLink(long processId, Long runId, Long batchId) {
    }
}
