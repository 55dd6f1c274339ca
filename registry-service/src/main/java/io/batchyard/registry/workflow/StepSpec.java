package io.batchyard.registry.workflow;

import java.util.List;
import java.util.Map;

/**
 * The input of the generator for one process: what the registry knows about it, free of persistence types.
 * {@code properties} maps config group to (key, value) pairs in key order.
 */
public record StepSpec(long processId, String name, int processTypeId, boolean canRecover, List<Long> nextProcessIds,
                       List<Long> enqueuingProcessIds, String description,
                       Map<String, List<Map.Entry<String, String>>> properties) {

    List<Map.Entry<String, String>> group(String configGroup) {
        return properties.getOrDefault(configGroup, List.of());
    }
}
