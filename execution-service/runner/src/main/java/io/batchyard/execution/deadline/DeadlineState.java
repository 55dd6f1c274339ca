package io.batchyard.execution.deadline;

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
}
