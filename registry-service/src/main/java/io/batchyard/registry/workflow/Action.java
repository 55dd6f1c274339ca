package io.batchyard.registry.workflow;

import java.util.List;

/**
 * What one action node runs: a shell script, a Hive or Pig script, a Java main class (Map Reduce, Spark through
 * spark-submit, the ETL programs), a Hadoop streaming job or another parent's workflow. {@link #prefix()} starts the
 * node's name.
 */
sealed interface Action {

    /** Action-node name prefix, as in the reference (shell-, hive-, import-, fileRegistration-, ...). */
    String prefix();

    record Shell(String prefix, String script, List<String> arguments, List<String> files) implements Action {
    }

    record Hive(String prefix, String script, List<String> params) implements Action {
    }

    record Pig(String script, List<String> params) implements Action {
        public String prefix() {
            return "pig";
        }
    }

    /** {@code captureOutput}: the node's output is read by the next node of the same step (file registration). */
    record Java(String prefix, String mainClass, List<String> arguments, boolean captureOutput) implements Action {
    }

    record Streaming(String mapper, String reducer, String input, String output, List<String> files) implements Action {
        public String prefix() {
            return "hadoopStream";
        }
    }

    record SubWorkflow(long processId) implements Action {
        public String prefix() {
            return "subworkflow";
        }
    }
}
