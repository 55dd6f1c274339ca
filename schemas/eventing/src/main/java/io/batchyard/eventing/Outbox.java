package io.batchyard.eventing;

import io.batchyard.schemas.EventCatalog;
import io.batchyard.schemas.EventCodec;
import io.batchyard.schemas.Events;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;
import org.jdbi.v3.core.Handle;

/**
 * Appends events to the transactional outbox. Call it with the handle of the transaction that makes the state change,
 * so that the change and its event commit or roll back together; {@link OutboxRelay} publishes them afterwards.
 */
@ApplicationScoped
public class Outbox {

    public void append(Handle tx, String topic, Object key, SpecificRecord event) {
        Objects.requireNonNull(tx, "an outbox row needs the business transaction");
        if (!tx.isInTransaction()) {
            throw new IllegalStateException("outbox rows must be written inside the business transaction");
        }
        tx.createUpdate("""
                        INSERT INTO outbox_event (event_id, topic, record_key, event_type, payload)
                        VALUES (:eventId, :topic, :key, :type, :payload)""")
                .bind("eventId", Events.eventId(event))
                .bind("topic", topic)
                .bind("key", String.valueOf(key))
                .bind("type", EventCatalog.eventType(event.getClass()))
                .bind("payload", EventCodec.encode(event))
                .execute();
    }
}
