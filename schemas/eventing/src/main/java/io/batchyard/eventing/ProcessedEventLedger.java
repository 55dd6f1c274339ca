package io.batchyard.eventing;

import io.batchyard.schemas.EventCatalog;
import io.batchyard.schemas.Events;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;

/**
 * Idempotent consumption: the event id goes into {@code processed_event} in the same transaction as the effect, so a
 * redelivered event (Kafka is at-least-once) finds its id and changes nothing. Call it from inside the consumer's
 * service method ({@code @WithTransaction}): a failed effect rolls the ledger row back with it, so the retry applies it.
 */
@ApplicationScoped
public class ProcessedEventLedger {

    private final ProcessedEventRepository repository;
    private final AtomicLong duplicates = new AtomicLong();

    public ProcessedEventLedger(ProcessedEventRepository repository) {
        this.repository = repository;
    }

    /**
     * Runs {@code effect} unless {@code consumer} already processed this event, in the caller's transaction.
     *
     * @return true when the effect ran, false for a duplicate delivery
     */
    public Uni<Boolean> once(String consumer, SpecificRecord event, Supplier<Uni<?>> effect) {
        return repository.insertIfAbsent(consumer, Events.eventId(event), EventCatalog.eventType(event.getClass()))
                .chain(first -> {
                    if (!first) {
                        duplicates.incrementAndGet();
                        return Uni.createFrom().item(false);
                    }
                    return effect.get().replaceWith(true);
                });
    }

    /** Duplicate deliveries dropped since start; tests assert it to prove a redelivery really happened. */
    public long duplicatesDropped() {
        return duplicates.get();
    }
}
