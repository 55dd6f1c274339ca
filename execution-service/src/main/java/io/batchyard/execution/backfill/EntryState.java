package io.batchyard.execution.backfill;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The states of one entry of a running backfill and the only moves between them. PENDING: not started; STARTING: its
 * bucket is handed to the runner; RUNNING: the runner's run of it started; SUCCEEDED and FAILED: that run ended;
 * SKIPPED: an entry it consumes from failed, so it will not run. A PENDING entry fails at once when its batches cannot
 * be offered again. A resume makes FAILED and SKIPPED entries PENDING
 * again; a run that could not start yet (a service it needs did not answer) makes a RUNNING entry STARTING again.
 */
public enum EntryState {
    PENDING, STARTING, RUNNING, SUCCEEDED, FAILED, SKIPPED;

    private static final Map<EntryState, Set<EntryState>> MOVES = Map.of(
            PENDING, EnumSet.of(STARTING, SKIPPED, FAILED),
            STARTING, EnumSet.of(RUNNING, FAILED),
            RUNNING, EnumSet.of(SUCCEEDED, FAILED, STARTING),
            SUCCEEDED, EnumSet.noneOf(EntryState.class),
            FAILED, EnumSet.of(PENDING),
            SKIPPED, EnumSet.of(PENDING));

    public boolean canBecome(EntryState to) {
        return MOVES.get(this).contains(to);
    }

    /** Handed to the runner and not ended: counts against the backfill's concurrency. */
    public boolean inFlight() {
        return this == STARTING || this == RUNNING;
    }

    /** Will not change again unless the backfill is resumed. */
    public boolean ended() {
        return this == SUCCEEDED || this == FAILED || this == SKIPPED;
    }
}
