package io.batchyard.registry.process;

/** Filters of {@code GET /processes}; null fields do not filter. */
public record ProcessFilter(Long applicationId, Long parentProcessId, Integer processTypeId, Boolean parentsOnly,
                            String nameContains, boolean includeDeleted) {
}
