package io.batchyard.execution.deadline;

import java.util.Arrays;
import java.util.Optional;

/**
 * SET → AT_RISK → MET | MISSED; SET → MET | MISSED; MISSED → RECOVERED (the run finished late); any open state →
 * WAIVED (an operator's decision). MET, RECOVERED and WAIVED are final.
 */
public enum DeadlineState {
    SET, AT_RISK, MET, MISSED, RECOVERED, WAIVED;

    /** Whether the deadline still watches its bucket. */
    public boolean open() {
        return this == SET || this == AT_RISK || this == MISSED;
    }

    public static Optional<DeadlineState> parse(String text) {
        return Arrays.stream(values()).filter(s -> s.name().equalsIgnoreCase(text == null ? "" : text.trim()))
                .findFirst();
    }
}
