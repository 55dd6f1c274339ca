package io.batchyard.execution.backfill;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * A backfill's states and the only moves between them. QUEUED: accepted, waiting for its first run; RUNNING: its
 * runs go level by level; PAUSED: no new run starts (running ones finish); FAILED: an entry failed and the backfill
 * stopped on it (resumable); SUCCEEDED and CANCELLED are ends.
 */
public enum BackfillState {
    QUEUED, RUNNING, PAUSED, SUCCEEDED, FAILED, CANCELLED;

    private static final Map<BackfillState, Set<BackfillState>> MOVES = Map.of(
            QUEUED, EnumSet.of(RUNNING, PAUSED, CANCELLED),
            RUNNING, EnumSet.of(PAUSED, SUCCEEDED, FAILED, CANCELLED),
            PAUSED, EnumSet.of(QUEUED, CANCELLED),
            FAILED, EnumSet.of(QUEUED, CANCELLED),
            SUCCEEDED, EnumSet.noneOf(BackfillState.class),
            CANCELLED, EnumSet.noneOf(BackfillState.class));

    public boolean canBecome(BackfillState to) {
        return MOVES.get(this).contains(to);
    }

    /** What an operator's action moves a backfill to: pause, resume (back to QUEUED, to be picked up) or cancel. */
    public enum Action {
        PAUSE(PAUSED), RESUME(QUEUED), CANCEL(CANCELLED);

        private final BackfillState target;

        Action(BackfillState target) {
            this.target = target;
        }

        public BackfillState target() {
            return target;
        }
    }
}
