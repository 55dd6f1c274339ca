package io.batchyard.queue.compaction.merge;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * States of a merge job and the only transitions between them (without the reference queue's hazards: the claim is
 * exclusive, and an attempt counter parks a poison partition as DEAD instead of retrying it forever). A finished job
 * is deleted, so "finished" is not a state.
 */
public enum MergeJobState {
    PENDING, ONGOING, DEAD;

    /** What can happen to a job. */
    public enum Event {
        /** A worker takes a due pending job (exclusively). */
        CLAIM,
        /** The run merged something and more is left: a follow-up is due at once (carry-over). */
        CONTINUE,
        /** The lease expired or the run failed, with attempts left: back to pending. */
        RETRY,
        /** The lease expired or the run failed for the last allowed time. */
        DEAD_LETTER,
        /** An operator revives a dead job. */
        REVIVE
    }

    private static final Map<MergeJobState, Map<Event, MergeJobState>> TRANSITIONS = new EnumMap<>(MergeJobState.class);

    static {
        TRANSITIONS.put(PENDING, Map.of(Event.CLAIM, ONGOING));
        TRANSITIONS.put(ONGOING, Map.of(Event.CONTINUE, PENDING, Event.RETRY, PENDING, Event.DEAD_LETTER, DEAD));
        TRANSITIONS.put(DEAD, Map.of(Event.REVIVE, PENDING));
    }

    public Optional<MergeJobState> on(Event event) {
        return Optional.ofNullable(TRANSITIONS.get(this).get(event));
    }

    /** The state after {@code event}; throws if the transition is not in the table. */
    public MergeJobState next(Event event) {
        return on(event).orElseThrow(() -> new IllegalStateException("merge job: no transition " + this + " --" + event + "->"));
    }

    /** After a failed or expired run with {@code attempts} claims so far. */
    public static Event afterFailure(int attempts, int maxAttempts) {
        return attempts >= maxAttempts ? Event.DEAD_LETTER : Event.RETRY;
    }
}
