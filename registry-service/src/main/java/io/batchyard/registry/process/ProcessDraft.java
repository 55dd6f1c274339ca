package io.batchyard.registry.process;

import java.util.List;

/** The editable fields of a process, as they will be after a create or update: what the rules validate. */
public record ProcessDraft(
        Long processId,
        String name,
        String description,
        long applicationId,
        int processTypeId,
        Long parentProcessId,
        boolean canRecover,
        List<Long> enqueuingProcessIds,
        String batchCutPattern,
        List<Long> nextProcessIds,
        int workflowTypeId,
        Long processTemplateId,
        Long serverId) {

    /** A draft that names no server (templates carry none). */
    public ProcessDraft(Long processId, String name, String description, long applicationId, int processTypeId,
                        Long parentProcessId, boolean canRecover, List<Long> enqueuingProcessIds,
                        String batchCutPattern, List<Long> nextProcessIds, int workflowTypeId, Long processTemplateId) {
        this(processId, name, description, applicationId, processTypeId, parentProcessId, canRecover,
                enqueuingProcessIds, batchCutPattern, nextProcessIds, workflowTypeId, processTemplateId, null);
    }

    public ProcessDraft {
        enqueuingProcessIds = List.copyOf(enqueuingProcessIds);
        nextProcessIds = List.copyOf(nextProcessIds);
        // The reference treated '' as "no pattern" in one place and "match all" in another: normalise at write time.
        batchCutPattern = batchCutPattern == null || batchCutPattern.isBlank() ? null : batchCutPattern.trim();
    }

    public boolean isParent() {
        return parentProcessId == null;
    }
}
