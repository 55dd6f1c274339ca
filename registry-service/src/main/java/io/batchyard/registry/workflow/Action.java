package io.batchyard.registry.workflow;

import java.util.List;

/**
 * What a step runs, by process type: a shell script, a Hive script, a Pig script, or a Java main class (Map Reduce,
 * Spark through spark-submit).
 */
sealed interface Action {

    /** Action-node name prefix, as in the reference (shell-, hive-, pig-, mapreduce-, spark-). */
    String prefix();

    record Shell(String script, List<String> arguments, List<String> files) implements Action {
        public String prefix() {
            return "shell";
        }
    }

    record Hive(String script, List<String> params) implements Action {
        public String prefix() {
            return "hive";
        }
    }

    record Pig(String script, List<String> params) implements Action {
        public String prefix() {
            return "pig";
        }
    }

    record Java(String prefix, String mainClass, List<String> arguments) implements Action {
    }
}
