package io.batchyard.execution.backfill;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * One entry of a running backfill as it goes: the plan entry's process, bucket and level, what it consumes from other
 * entries, its state, the batches its run claims by name (null: the ordinary claim), the run that re-did it and that
 * run's output, and why it failed or was skipped; from the plan, the batches the replaced run consumed and its status
 * (COMPLETED, FAILED, RUNNING, or MISSING for a bucket that never ran).
 */
public record EntryRun(UUID backfillId, int entryNo, int level, long processId, String bucket, EntryState state,
                       List<Long> sourceBatchIds, Long instanceExecId, Long targetBatchId, String message,
                       OffsetDateTime startedAt, OffsetDateTime endedAt, List<PlanEntry.Consumed> consumes,
                       List<Long> inputBatchIds, String replacedStatus) {

    EntryRun with(EntryState now) {
        return new EntryRun(backfillId, entryNo, level, processId, bucket, now, sourceBatchIds, instanceExecId,
                targetBatchId, message, startedAt, endedAt, consumes, inputBatchIds, replacedStatus);
    }
}
