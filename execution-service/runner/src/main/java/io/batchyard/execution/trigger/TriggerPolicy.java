package io.batchyard.execution.trigger;

import io.batchyard.execution.ExecutionError;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * When a parent is started because of its data: {@code on-batch} as soon as a step gets a batch, {@code all-enqueuers}
 * once every enqueuing process of its steps has delivered since its last triggered run, {@code none} never.
 */
public enum TriggerPolicy {
    ON_BATCH("on-batch"),
    ALL_ENQUEUERS("all-enqueuers"),
    NONE("none");

    private final String text;

    TriggerPolicy(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    /** The policy of its wire text; 426 for anything else (absent included: there is no implicit choice). */
    public static TriggerPolicy of(String text) {
        return Arrays.stream(values()).filter(p -> p.text.equals(text)).findFirst()
                .orElseThrow(() -> ExecutionError.INVALID_TRIGGER_POLICY.exception("policy must be one of "
                        + Arrays.stream(values()).map(p -> "'" + p.text + "'").collect(Collectors.joining(", "))
                        + (text == null ? "; none was given" : "; '" + text + "' is not one")));
    }
}
