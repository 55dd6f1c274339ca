package io.batchyard.execution.lifecycle;

import io.batchyard.api.CommonErrors;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * Run states (BDRE EXEC_STATUS) and the only transitions a run may make. Run control uses RUNNING, SUCCESS and FAILED;
 * KILLED is an operator's stop. Every transition of a run is checked against this table.
 */
public enum ExecState {
    NOT_RUNNING(1), RUNNING(2), SUCCESS(3), PAUSED(4), SUSPENDED(5), FAILED(6), KILLED(7), STARTED(8);

    private static final Map<ExecState, Set<ExecState>> TRANSITIONS = Map.of(
            RUNNING, EnumSet.of(SUCCESS, FAILED, KILLED),
            SUCCESS, EnumSet.noneOf(ExecState.class),
            FAILED, EnumSet.noneOf(ExecState.class),
            KILLED, EnumSet.noneOf(ExecState.class));

    public final int id;

    ExecState(int id) {
        this.id = id;
    }

    public boolean canBecome(ExecState next) {
        return TRANSITIONS.getOrDefault(this, Set.of()).contains(next);
    }

    public boolean isTerminal() {
        return TRANSITIONS.containsKey(this) && TRANSITIONS.get(this).isEmpty();
    }

    /** A state as a client names it: its name in any case, or its number. */
    public static ExecState parse(String text) {
        String t = text.strip();
        for (ExecState s : values()) {
            if (s.name().equalsIgnoreCase(t) || Integer.toString(s.id).equals(t)) {
                return s;
            }
        }
        throw CommonErrors.INVALID_REQUEST.exception("state must be one of " + Arrays.toString(values())
                + " or their numbers 1-8");
    }

    public static ExecState of(int id) {
        for (ExecState s : values()) {
            if (s.id == id) {
                return s;
            }
        }
        throw new IllegalArgumentException("no exec state " + id);
    }
}
