package io.batchyard.queue.compaction.partition;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * States of a quarantined small object and the only transitions between them. A merge quarantines an object it cannot
 * use instead of failing the whole partition; only an operator ends a quarantine, by releasing the object (it is
 * merged again, under a new id) or dropping it (never merged). A released object that is still bad is quarantined
 * again; a dropped one stays dropped.
 */
public enum QuarantineState {
    QUARANTINED, RELEASED, DROPPED;

    /** What can happen to a quarantined object. */
    public enum Event {
        /** A merge found the object unusable (again). */
        QUARANTINE,
        /** An operator fixed the object at its source key: merge it again. */
        RELEASE,
        /** An operator gave the object up: it is never merged. */
        DROP
    }

    private static final Map<QuarantineState, Map<Event, QuarantineState>> TRANSITIONS = new EnumMap<>(QuarantineState.class);

    static {
        TRANSITIONS.put(QUARANTINED, Map.of(Event.RELEASE, RELEASED, Event.DROP, DROPPED));
        TRANSITIONS.put(RELEASED, Map.of(Event.QUARANTINE, QUARANTINED));
        TRANSITIONS.put(DROPPED, Map.of());
    }

    public Optional<QuarantineState> on(Event event) {
        return Optional.ofNullable(TRANSITIONS.get(this).get(event));
    }

    public boolean allows(Event event) {
        return on(event).isPresent();
    }

    /** The state an operator's event leads to; repeating it (already there) is not a transition but an answer. */
    public static QuarantineState target(Event event) {
        return switch (event) {
            case QUARANTINE -> QUARANTINED;
            case RELEASE -> RELEASED;
            case DROP -> DROPPED;
        };
    }
}
