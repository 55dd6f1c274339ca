package io.batchyard.lineage.process;

import java.util.List;

/**
 * "Lineage by batch" for {@code batchId} as a target batch ({@code sources} with the runs that produced them), plus
 * where the batch itself came from and went.
 */
public record BatchLineage(long batchId, ProcessLineage.Run producedBy, List<SourceBatch> sources,
                           List<ProcessLineage.Enqueue> enqueuedTo, List<ProcessLineage.Run> consumedBy) {

    public record SourceBatch(long sourceBatchId, ProcessLineage.Run producedBy) {
    }
}
