package io.batchyard.execution.runner;

import io.batchyard.readmodel.ProcessDefinition;
import java.util.Optional;

/**
 * How many batches per step a run the runner starts claims at InitJob (its {@code maxBatch}). A workflow engine
 * passes it on the InitJob call; the runner has no caller to ask, and InitJob refuses a null for a parent with an
 * enqueued step (101), so it always sends one: the parent's property {@code runner/max-batch} when set, else the run
 * policy's {@code maxBatchSize}, else one batch per step, which is what a generated Oozie or Airflow workflow passes.
 */
public final class MaxBatch {

    /** The parent property that says it. */
    public static final String PROPERTY = "max-batch";
    /** Without a max batch of its own a run claims one batch per step, as a generated workflow's InitJob does. */
    public static final int DEFAULT = 1;

    private MaxBatch() {
    }

    /** @throws IllegalArgumentException when {@code runner/max-batch} is set to anything but a whole number ≥ 1 */
    public static int of(ProcessDefinition parent, RunnerJob job) {
        Optional<String> property = parent.property(StepCommand.RUNNER_GROUP, PROPERTY);
        if (property.isPresent()) {
            String text = property.get().trim();
            try {
                int value = Integer.parseInt(text);
                if (value >= 1) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // refused below with the value as written
            }
            throw new IllegalArgumentException("property " + StepCommand.RUNNER_GROUP + "/" + PROPERTY + " of parent "
                    + parent.processId() + " must be a whole number of at least 1, got '" + property.get() + "'");
        }
        return job.maxBatchSize() != null ? job.maxBatchSize() : DEFAULT;
    }
}
