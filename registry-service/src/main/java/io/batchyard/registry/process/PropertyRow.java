package io.batchyard.registry.process;

/** A key/value parameter of a process, grouped by config group (script, param, query, credential, ...). */
public record PropertyRow(long processId, String configGroup, String key, String value, String description) {

    /** Groups whose values never leave the registry in events. */
    public boolean sensitive() {
        return "credential".equalsIgnoreCase(configGroup) || "security".equalsIgnoreCase(configGroup);
    }
}
