package io.batchyard.eventing;

import io.batchyard.schemas.EventCatalog;
import io.batchyard.schemas.Events;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;

/**
 * Idempotent consumption: the event id goes into {@code processed_event} in the same transaction as the effect, so a
 * redelivered event (Kafka is at-least-once) finds its id and changes nothing. Call it from inside the consumer's
 * service method ({@code @WithTransaction}): a failed effect rolls the ledger row back with it, so the retry applies it.
 *
 * <p>Dropped duplicates are counted per consumer ({@code batchyard.events.duplicates}); a rising count is Kafka's
 * at-least-once delivery (a relay that re-sent after losing its connection, a rebalance) doing what it may. Rows older
 * than {@code batchyard.retention.window} are deleted by {@link Retention}: a redelivery later than that would apply
 * again, so the window must exceed how late any redelivery can come.
 */
@ApplicationScoped
public class ProcessedEventLedger {

    /** Deliveries the ledger found already applied, per consumer. */
    public static final String DUPLICATES = "batchyard.events.duplicates";

    private final ProcessedEventRepository repository;
    private final MeterRegistry meters;
    private final Map<String, Counter> duplicates = new ConcurrentHashMap<>();

    public ProcessedEventLedger(ProcessedEventRepository repository, MeterRegistry meters) {
        this.repository = repository;
        this.meters = meters;
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
                        duplicate(consumer);
                        return Uni.createFrom().item(false);
                    }
                    return effect.get().replaceWith(true);
                });
    }

    /**
     * {@link #once} for a batch of events, in the caller's transaction: one statement records every event's id, then
     * {@code effect} runs for each event the consumer had not processed yet, one after the other in the batch's order
     * and each in its record's scope ({@link RecordBatch}). An event that appears twice in the batch is applied at its
     * first appearance only.
     *
     * @return per event, in the batch's order: true when its effect ran, false for a duplicate delivery
     */
    public <E extends SpecificRecord> Uni<List<Boolean>> onceAll(String consumer, RecordBatch<E> events,
                                                                 Function<? super E, ? extends Uni<?>> effect) {
        Map<UUID, String> distinct = new LinkedHashMap<>();
        for (E event : events.payloads()) {
            distinct.putIfAbsent(Events.eventId(event), EventCatalog.eventType(event.getClass()));
        }
        return repository.insertAllIfAbsent(consumer, List.copyOf(distinct.keySet()), List.copyOf(distinct.values()))
                .chain(inserted -> {
                    List<Boolean> first = new ArrayList<>(events.size());
                    Set<UUID> seen = new HashSet<>();
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (int i = 0; i < events.size(); i++) {
                        E event = events.get(i);
                        UUID id = Events.eventId(event);
                        boolean applies = seen.add(id) && inserted.contains(id);
                        first.add(applies);
                        if (!applies) {
                            duplicate(consumer);
                            continue;
                        }
                        int index = i;
                        chain = chain.chain(() -> events.around(index, () -> effect.apply(event).replaceWithVoid()))
                                .replaceWithVoid();
                    }
                    return chain.replaceWith(first);
                });
    }

    private void duplicate(String consumer) {
        duplicates.computeIfAbsent(consumer, c -> Counter.builder(DUPLICATES).tag("consumer", c)
                .description("Deliveries of an event the consumer had already applied, dropped")
                .register(meters)).increment();
    }
}
