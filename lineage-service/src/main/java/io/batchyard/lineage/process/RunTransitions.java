package io.batchyard.lineage.process;

import io.smallrye.mutiny.Uni;
import java.time.OffsetDateTime;

/**
 * Told of every run and step start and end in the transaction that projects it, so what follows from it (the
 * OpenLineage events to push) commits or rolls back with the projection. Declared here so that process lineage does
 * not depend on its listeners.
 */
public interface RunTransitions {

    /** {@code state} RUNNING, SUCCESS or FAILED; {@code error} the failure's text, if any. */
    record Transition(long instanceExecId, boolean step, String state, OffsetDateTime at, String error) {
    }

    Uni<Void> changed(Transition transition);
}
