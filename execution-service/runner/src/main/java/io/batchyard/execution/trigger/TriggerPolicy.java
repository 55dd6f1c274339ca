package io.batchyard.execution.trigger;

import io.batchyard.execution.ExecutionError;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * When a parent's data starts it, per bucket of the parent: {@code each} input starts a run of its bucket; {@code all}
 * inputs complete; {@code any-of} one of them complete; {@code n-of} n of them; {@code all-with-timeout} all, or what
 * arrived once the timeout since the bucket's first input has passed; {@code none} never. {@code on-batch} and
 * {@code all-enqueuers} are the old names of each and all, still accepted; answers use the new ones.
 */
public enum TriggerPolicy {
    EACH("each", "on-batch"),
    ALL("all", "all-enqueuers"),
    ANY_OF("any-of", null),
    N_OF("n-of", null),
    ALL_WITH_TIMEOUT("all-with-timeout", null),
    NONE("none", null);

    private final String text;
    private final String oldName;

    TriggerPolicy(String text, String oldName) {
        this.text = text;
        this.oldName = oldName;
    }

    public String text() {
        return text;
    }

    /** The policy of its wire text or old name; 426 for anything else (absent included: no implicit choice). */
    public static TriggerPolicy of(String text) {
        return Arrays.stream(values()).filter(p -> p.text.equals(text) || (p.oldName != null && p.oldName.equals(text)))
                .findFirst()
                .orElseThrow(() -> ExecutionError.INVALID_TRIGGER_POLICY.exception("policy must be one of "
                        + Arrays.stream(values()).map(p -> "'" + p.text + "'").collect(Collectors.joining(", "))
                        + " (or the old names 'on-batch', 'all-enqueuers')"
                        + (text == null ? "; none was given" : "; '" + text + "' is not one")));
    }
}
