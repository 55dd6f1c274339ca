package io.batchyard.registry.process;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** A row of {@code process}: a parent process (job) when {@code parentProcessId} is null, else a step. */
public record ProcessRow(
        long processId,
        String name,
        String description,
        long applicationId,
        int processTypeId,
        Long parentProcessId,
        boolean canRecover,
        List<Long> enqueuingProcessIds,
        String batchCutPattern,
        List<Long> nextProcessIds,
        boolean deleted,
        int workflowTypeId,
        Long processTemplateId,
        UUID processCode,
        int version,
        OffsetDateTime createdAt,
        OffsetDateTime updatedAt,
        Long serverId) {

    /** A row that names no server (templates seen as processes by the tree rules). */
    public ProcessRow(long processId, String name, String description, long applicationId, int processTypeId,
                      Long parentProcessId, boolean canRecover, List<Long> enqueuingProcessIds, String batchCutPattern,
                      List<Long> nextProcessIds, boolean deleted, int workflowTypeId, Long processTemplateId,
                      UUID processCode, int version, OffsetDateTime createdAt, OffsetDateTime updatedAt) {
        this(processId, name, description, applicationId, processTypeId, parentProcessId, canRecover,
                enqueuingProcessIds, batchCutPattern, nextProcessIds, deleted, workflowTypeId, processTemplateId,
                processCode, version, createdAt, updatedAt, null);
    }

    public boolean isParent() {
        return parentProcessId == null;
    }

    /** The parent whose tree this process belongs to: itself for a parent. */
    public long treeId() {
        return isParent() ? processId : parentProcessId;
    }
}
