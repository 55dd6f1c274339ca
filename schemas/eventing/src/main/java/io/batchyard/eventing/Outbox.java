package io.batchyard.eventing;

import io.batchyard.schemas.EventCatalog;
import io.batchyard.schemas.EventCodec;
import io.batchyard.schemas.Events;
import io.batchyard.events.EventHeader;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;

/**
 * Appends events to the transactional outbox. Call it from inside the service method whose transaction makes the state
 * change ({@code @WithTransaction}), so that the change and its event commit or roll back together;
 * {@link OutboxRelay} publishes them afterwards. Outside a transaction it fails instead of committing the event alone.
 */
@ApplicationScoped
public class Outbox {

    private final OutboxRepository repository;

    public Outbox(OutboxRepository repository) {
        this.repository = repository;
    }

    public Uni<Void> append(String topic, Object key, SpecificRecord event) {
        Objects.requireNonNull(event, "event");
        EventHeader header = Events.headerOf(event);
        if (header.getActor() == null) {
            header.setActor(Actor.current());
        }
        OutboxEvent row = new OutboxEvent(Events.eventId(event), topic, String.valueOf(key),
                EventCatalog.eventType(event.getClass()), EventCodec.encode(event), Trace.nextSpan().toString());
        return repository.insert(row);
    }
}
