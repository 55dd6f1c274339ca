package io.batchyard.lineage.process;

import io.smallrye.mutiny.Uni;
import java.time.OffsetDateTime;

/**
 * Told of every run and step start and end in the transaction that projects it, so what follows from it (the
 * OpenLineage events to push) commits or rolls back with the projection. Declared here so that process lineage does
 * not depend on its listeners.
 *
 * <p>A polled batch's rows are written before its transitions are told, in the batch's order. What a listener reads of
 * the projection when told is as the event left it: the run's row (its process, its batch marking) and which step runs
 * it has; for a step, its own row, and its parent run's row (whether there is one, whether it is RUNNING, its batch
 * marking) and step runs. Other columns may already hold later events of the same batch.
 */
public interface RunTransitions {

    /** {@code state} RUNNING, SUCCESS or FAILED; {@code error} the failure's text, if any. */
    record Transition(long instanceExecId, boolean step, String state, OffsetDateTime at, String error) {
    }

    Uni<Void> changed(Transition transition);

    /**
     * Whether {@link #changed} reads the projection at all. When it does not, nothing needs a row as an event left it,
     * and each of a batch's rows is written at once.
     */
    default boolean readsProjection() {
        return true;
    }
}
