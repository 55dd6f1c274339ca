package io.batchyard.eventing;

import io.batchyard.persistence.Params;

/**
 * An outbox row built before the statement that makes its state change, so that this one statement writes the change
 * and its event together: one round trip and one statement fewer than a change followed by {@link Outbox#append}.
 * The statement takes {@link #insertFrom} as one of its {@code WITH} items and {@link #params} with its own; the row
 * is written once for each row its source yields, so a change that did not happen writes no event. The statement
 * must run in the business transaction, like any outbox write.
 *
 * <p>Only an event whose every field is known before the statement can be staged: a caller that guessed a value the
 * statement then produced differently (an id, a read that a concurrent change made stale) makes the source yield
 * nothing and appends the right event with {@link Outbox#append} instead.
 */
public final class StagedEvent {

    private final OutboxEvent row;

    StagedEvent(OutboxEvent row) {
        this.row = row;
    }

    /**
     * The data-modifying {@code WITH} item's body: an INSERT of this row once for each row of {@code source} (a
     * {@code FROM} clause and its condition, e.g. {@code "moved WHERE moved.id = :id"}), returning one row per row
     * written. Parameters are named {@code outbox_*}, so one statement stages at most one event.
     */
    public String insertFrom(String source) {
        return OutboxRepository.insertSelect(source);
    }

    /** The parameters {@link #insertFrom} names. */
    public Params params() {
        return OutboxRepository.insertSelectParams(row);
    }
}
