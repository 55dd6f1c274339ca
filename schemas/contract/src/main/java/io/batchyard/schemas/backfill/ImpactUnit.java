package io.batchyard.schemas.backfill;

import java.util.List;

/**
 * One unit of work a backfill re-does: a run of {@code processId} (a parent) and the input batches it consumed, or,
 * for a row nobody has claimed yet ({@code runId} null, {@code status} {@code MISSING}), the batch waiting for the
 * process. {@code status} is {@code COMPLETED} (its rows are archived), {@code FAILED}, {@code RUNNING} or
 * {@code MISSING}. {@code marking} is the batch marking its inputs carried (the upstream run's bucket), null when none
 * did. {@code causes} are the affected batches it consumed and the units that produced them; a root has none.
 */
public record ImpactUnit(long processId, Long runId, Long targetBatchId, String status, String marking, boolean root,
                         List<Long> inputBatchIds, List<ImpactCause> causes) {
}
