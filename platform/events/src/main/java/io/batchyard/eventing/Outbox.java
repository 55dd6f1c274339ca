package io.batchyard.eventing;

import io.batchyard.schemas.EventCatalog;
import io.batchyard.schemas.EventCodec;
import io.batchyard.schemas.Events;
import io.batchyard.events.EventHeader;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;

/**
 * Appends events to the transactional outbox. Call it from inside the service method whose transaction makes the state
 * change ({@code @WithTransaction}), so that the change and its event commit or roll back together;
 * {@link OutboxRelay} publishes them afterwards. Outside a transaction it fails instead of committing the event alone.
 *
 * <p>Each row keeps the {@code traceparent} of the span current when the event was appended (the HTTP call's server
 * span, a consumed record's processing span), so that the relay publishes the event in the trace of the work that
 * caused it, however much later that is ({@link Trace}).
 */
@ApplicationScoped
public class Outbox {

    private final OutboxRepository repository;
    private final Tracer tracer;

    public Outbox(OutboxRepository repository, Tracer tracer) {
        this.repository = repository;
        this.tracer = tracer;
    }

    public Uni<Void> append(String topic, Object key, SpecificRecord event) {
        return repository.insert(row(topic, key, event));
    }

    /**
     * The row {@link #append} would write, for a statement that writes it together with its state change
     * ({@link StagedEvent}); nothing is written until that statement runs.
     */
    public StagedEvent stage(String topic, Object key, SpecificRecord event) {
        return new StagedEvent(row(topic, key, event));
    }

    /**
     * Appends many events of one topic in as few statements as the list allows (one multi-row INSERT per
     * {@link OutboxRepository#ROWS_PER_INSERT}), in the list's order. For work that changes many objects in one
     * transaction, where one round trip per event would cost more than the change itself.
     */
    public <T> Uni<Void> appendAll(String topic, List<T> items, Function<T, Object> key,
                                   Function<T, ? extends SpecificRecord> event) {
        // One traceparent for the lot: the events come from one piece of work, and work no span covers (a scheduled
        // job) gets one trace for it rather than one per event.
        String traceparent = items.isEmpty() ? null : Trace.traceparent(spanOf(topic));
        List<OutboxEvent> rows = new ArrayList<>(items.size());
        for (T item : items) {
            rows.add(row(topic, key.apply(item), event.apply(item), traceparent));
        }
        return repository.insertAll(rows);
    }

    private OutboxEvent row(String topic, Object key, SpecificRecord event) {
        return row(topic, key, event, Trace.traceparent(spanOf(topic)));
    }

    private static OutboxEvent row(String topic, Object key, SpecificRecord event, String traceparent) {
        Objects.requireNonNull(event, "event");
        EventHeader header = Events.headerOf(event);
        if (header.getActor() == null) {
            header.setActor(Actor.current());
        }
        return new OutboxEvent(Events.eventId(event), topic, String.valueOf(key),
                EventCatalog.eventType(event.getClass()), EventCodec.encode(event), traceparent);
    }

    /**
     * The current span, or, for work no span covers (a scheduled job), a trace started now with a span of its own, so
     * that every row carries a traceparent.
     */
    private SpanContext spanOf(String topic) {
        SpanContext current = Span.current().getSpanContext();
        if (current.isValid()) {
            return current;
        }
        Span root = tracer.spanBuilder(topic + " append").setNoParent().startSpan();
        root.end();
        return root.getSpanContext();
    }
}
