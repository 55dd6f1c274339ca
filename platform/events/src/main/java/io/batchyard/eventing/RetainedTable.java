package io.batchyard.eventing;

import io.smallrye.mutiny.Uni;

/**
 * A table that {@link Retention} keeps bounded next to the outbox and the ledger: a bean of the module that owns the
 * table, with its own window. Each pass calls {@link #deleteExpired} until it deletes fewer rows than it was allowed,
 * on the same interval and with the same batch size as the outbox and ledger rows, so every table a service prunes
 * goes the same way: small statements, each its own short transaction, shared by replicas without waiting.
 */
public interface RetainedTable {

    /** The table's name, for log lines. */
    String table();

    /**
     * Deletes at most {@code limit} rows that are past the table's window, in one statement outside any transaction of
     * the caller, skipping rows another pruner holds; emits how many went.
     */
    Uni<Integer> deleteExpired(int limit);
}
