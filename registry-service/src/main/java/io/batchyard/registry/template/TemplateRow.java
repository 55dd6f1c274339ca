package io.batchyard.registry.template;

import io.batchyard.registry.process.ProcessRow;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** A process template: the shape of a parent process (no parent template) or of one of its steps. */
public record TemplateRow(long templateId, String name, String description, long applicationId, int processTypeId,
                          Long parentTemplateId, boolean canRecover, String batchCutPattern,
                          List<Long> nextTemplateIds, int workflowTypeId, boolean deleted, OffsetDateTime createdAt,
                          OffsetDateTime updatedAt) {

    public boolean isParent() {
        return parentTemplateId == null;
    }

    /** Templates obey the same tree rules as processes; this view lets {@code ProcessRules} check them. */
    ProcessRow asProcessRow() {
        return new ProcessRow(templateId, name, description, applicationId, processTypeId, parentTemplateId, canRecover,
                List.of(), batchCutPattern, nextTemplateIds, deleted, workflowTypeId, null, new UUID(0, templateId), 0,
                createdAt, updatedAt);
    }
}
