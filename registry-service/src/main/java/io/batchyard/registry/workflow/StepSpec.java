package io.batchyard.registry.workflow;

import java.util.List;
import java.util.Map;

/**
 * The input of the generator for one process: what the registry knows about it, free of persistence types.
 * {@code properties} maps config group to (key, value) pairs in key order; {@code serverId} is the server the step
 * names, else its parent's, else null.
 */
public record StepSpec(long processId, String name, int processTypeId, boolean canRecover, List<Long> nextProcessIds,
                       List<Long> enqueuingProcessIds, String description,
                       Map<String, List<Map.Entry<String, String>>> properties, Long serverId) {

    /** A step that names no server. */
    public StepSpec(long processId, String name, int processTypeId, boolean canRecover, List<Long> nextProcessIds,
                    List<Long> enqueuingProcessIds, String description,
                    Map<String, List<Map.Entry<String, String>>> properties) {
        this(processId, name, processTypeId, canRecover, nextProcessIds, enqueuingProcessIds, description, properties,
                null);
    }

    List<Map.Entry<String, String>> group(String configGroup) {
        return properties.getOrDefault(configGroup, List.of());
    }
}
