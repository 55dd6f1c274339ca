package io.batchyard.eventing;

import io.batchyard.schemas.EventCatalog;
import io.batchyard.schemas.Events;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Idempotent consumption: the event id goes into {@code processed_event} in the same transaction as the effect, so a
 * redelivered event (Kafka is at-least-once) finds its id and changes nothing.
 */
@ApplicationScoped
public class ProcessedEventLedger {

    @Inject
    Jdbi jdbi;

    private final AtomicLong duplicates = new AtomicLong();

    /**
     * Runs {@code effect} in a transaction unless {@code consumer} already processed this event.
     *
     * @return true when the effect ran, false for a duplicate delivery
     */
    public boolean processOnce(String consumer, SpecificRecord event, Consumer<Handle> effect) {
        return jdbi.inTransaction(tx -> {
            if (!record(tx, consumer, event)) {
                duplicates.incrementAndGet();
                return false;
            }
            effect.accept(tx);
            return true;
        });
    }

    /** Records the event id inside {@code tx}; false if it was already there. */
    public boolean record(Handle tx, String consumer, SpecificRecord event) {
        return tx.createUpdate("""
                        INSERT INTO processed_event (consumer, event_id, event_type) VALUES (:consumer, :id, :type)
                        ON CONFLICT DO NOTHING""")
                .bind("consumer", consumer)
                .bind("id", Events.eventId(event))
                .bind("type", EventCatalog.eventType(event.getClass()))
                .execute() == 1;
    }

    /** Duplicate deliveries dropped since start; tests assert it to prove a redelivery really happened. */
    public long duplicatesDropped() {
        return duplicates.get();
    }
}
