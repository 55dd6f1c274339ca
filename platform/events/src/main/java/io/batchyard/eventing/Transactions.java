package io.batchyard.eventing;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import org.hibernate.reactive.mutiny.Mutiny;

/**
 * The session of the transaction a service method opened. The outbox and the ledger only ever join the caller's
 * transaction: written on their own they would commit an event without its state change, or a ledger row without
 * its effect.
 */
final class Transactions {

    private Transactions() {
    }

    static Uni<Mutiny.Session> current() {
        return Panache.currentTransaction().chain(tx -> tx == null
                ? Uni.createFrom().failure(new IllegalStateException(
                        "outbox and ledger rows must be written inside the business transaction (@WithTransaction)"))
                : Panache.getSession());
    }
}
