package io.batchyard.registry.template;

import java.util.List;

/** The stored fields of a template. */
public record TemplateFields(String name, String description, long applicationId, int processTypeId,
                             Long parentTemplateId, boolean canRecover, String batchCutPattern,
                             List<Long> nextTemplateIds, int workflowTypeId) {
}
