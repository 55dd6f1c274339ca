package io.batchyard.eventing;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/**
 * One row of the transactional outbox, as the business transaction writes it. The position is an identity column, so
 * Hibernate inserts the row as soon as it is persisted: positions follow the order in which events were appended.
 * What the relay adds later (published_at, attempts, last_error) is written with SQL by {@link OutboxRepository}.
 */
@Entity
@Table(name = "outbox_event")
public class OutboxEvent {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    @Column(name = "position")
    public Long position;

    @Column(name = "event_id", nullable = false, updatable = false)
    public UUID eventId;

    @Column(name = "topic", nullable = false, updatable = false)
    public String topic;

    @Column(name = "record_key", nullable = false, updatable = false)
    public String recordKey;

    @Column(name = "event_type", nullable = false, updatable = false)
    public String eventType;

    @Column(name = "payload", nullable = false, updatable = false)
    public byte[] payload;

    /** The W3C traceparent the record is published with. */
    @Column(name = "traceparent", updatable = false)
    public String traceparent;

    protected OutboxEvent() {
    }

    OutboxEvent(UUID eventId, String topic, String recordKey, String eventType, byte[] payload, String traceparent) {
        this.traceparent = traceparent;
        this.eventId = eventId;
        this.topic = topic;
        this.recordKey = recordKey;
        this.eventType = eventType;
        this.payload = payload;
    }
}
