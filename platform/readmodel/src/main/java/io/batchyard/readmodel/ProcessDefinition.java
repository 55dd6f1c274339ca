package io.batchyard.readmodel;

import java.util.List;
import java.util.Optional;

/** A process as the registry last announced it. */
public record ProcessDefinition(
        long processId,
        Long parentProcessId,
        String name,
        int processTypeId,
        boolean canRecover,
        List<Long> enqueuingProcessIds,
        String batchCutPattern,
        List<Long> nextProcessIds,
        boolean deleted,
        int workflowTypeId,
        List<Property> properties) {

    /**
     * The definition as a registry event carries it: the one place the event's process shape becomes the read
     * model's. A blank batch-cut pattern means none.
     */
    public static ProcessDefinition of(io.batchyard.events.ProcessDefinition d) {
        String pattern = d.getBatchCutPattern() == null || d.getBatchCutPattern().isBlank() ? null : d.getBatchCutPattern();
        return new ProcessDefinition(d.getProcessId(), d.getParentProcessId(), d.getProcessName(), d.getProcessTypeId(),
                d.getCanRecover(), List.copyOf(d.getEnqueuingProcessIds()), pattern, List.copyOf(d.getNextProcessIds()),
                d.getDeleted(), d.getWorkflowTypeId(), d.getProperties().stream()
                        .map(p -> new Property(p.getConfigGroup(), p.getKey(), p.getValue())).toList());
    }

    /** A step parameter (script, param, query, ... group). */
    public record Property(String configGroup, String key, String value) {
    }

    public boolean isParent() {
        return parentProcessId == null;
    }

    /** A step consumes batches when it names at least one enqueuing process. */
    public boolean isEnqueued() {
        return !enqueuingProcessIds.isEmpty();
    }

    public boolean hasCutPattern() {
        return batchCutPattern != null && !batchCutPattern.isEmpty();
    }

    public Optional<String> property(String configGroup, String key) {
        return properties.stream().filter(p -> p.configGroup().equals(configGroup) && p.key().equals(key))
                .map(Property::value).findFirst();
    }

    public List<Property> properties(String configGroup) {
        return properties.stream().filter(p -> p.configGroup().equals(configGroup)).toList();
    }
}
