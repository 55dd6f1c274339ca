package io.batchyard.registry.process;

/**
 * A key/value parameter of a process, grouped by config group (script, param, query, credential, ...). The value of a
 * secret ({@link #sensitive()}) is the clear text only on its way in; as read back it is empty.
 */
public record PropertyRow(long processId, String configGroup, String key, String value, String description) {

    /** Whether values of {@code configGroup} are secrets: stored encrypted, never returned, never in events. */
    public static boolean sensitive(String configGroup) {
        return "credential".equalsIgnoreCase(configGroup) || "security".equalsIgnoreCase(configGroup);
    }

    public boolean sensitive() {
        return sensitive(configGroup);
    }

    /** Whether the value is a script text the stand-alone runner executes: a step's script, or its loop script. */
    public static boolean namesScript(String configGroup, String key) {
        return "script".equalsIgnoreCase(configGroup) || ("runner".equalsIgnoreCase(configGroup) && "loop-script".equals(key));
    }
}
