package io.batchyard.execution.runner;

import io.batchyard.readmodel.ProcessDefinition;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What a step runs, from the same registry properties the Oozie shell action uses: the one {@code script} property
 * and the {@code param} values as arguments; {@code runner} properties add a loop and a timeout.
 */
public record StepCommand(String script, List<String> params, List<String> loopValues, String loopScript,
                          Integer timeoutSeconds) {

    public static final String RUNNER_GROUP = "runner";

    /** @throws IllegalArgumentException when the step names no script, several, or a bad timeout */
    public static StepCommand of(ProcessDefinition step) {
        List<ProcessDefinition.Property> scripts = step.properties("script");
        if (scripts.size() != 1) {
            throw new IllegalArgumentException("step " + step.processId() + " needs exactly one property in group 'script' "
                    + "(the command to run), has " + scripts.size());
        }
        List<String> params = step.properties("param").stream().map(ProcessDefinition.Property::value).toList();
        List<String> loop = step.property(RUNNER_GROUP, "loop").map(StepCommand::loopValues).orElse(null);
        String loopScript = step.property(RUNNER_GROUP, "loop-script").orElse(null);
        Integer timeout = null;
        Optional<String> t = step.property(RUNNER_GROUP, "timeout-seconds");
        if (t.isPresent()) {
            try {
                timeout = Integer.parseInt(t.get().trim());
            } catch (NumberFormatException e) {
                timeout = -1;
            }
            if (timeout <= 0) {
                throw new IllegalArgumentException("step " + step.processId() + ": runner/timeout-seconds must be a "
                        + "positive number of seconds, got '" + t.get() + "'");
            }
        }
        return new StepCommand(scripts.get(0).value(), params, loop, loopScript, timeout);
    }

    /** {@code v1|v2|v3}; an empty text is an empty loop (zero runs). */
    public static List<String> loopValues(String text) {
        if (text == null || text.trim().isEmpty()) {
            return List.of();
        }
        return new ArrayList<>(Arrays.stream(text.trim().split("\\|")).map(String::trim).toList());
    }

    public boolean loops() {
        return loopValues != null || loopScript != null;
    }
}
