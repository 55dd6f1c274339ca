package io.batchyard.schemas.kafka;

import io.batchyard.schemas.EventCatalog;
import io.batchyard.schemas.EventCodec;
import java.nio.charset.StandardCharsets;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/** Kafka serializer for any Batchyard event; also sets the {@code event-type} header for non-Avro readers. */
public class EventSerializer implements Serializer<SpecificRecord> {

    public static final String EVENT_TYPE_HEADER = "event-type";

    @Override
    public byte[] serialize(String topic, SpecificRecord event) {
        return event == null ? null : EventCodec.encode(event);
    }

    @Override
    public byte[] serialize(String topic, Headers headers, SpecificRecord event) {
        if (event != null && headers != null) {
            headers.remove(EVENT_TYPE_HEADER);
            headers.add(EVENT_TYPE_HEADER, EventCatalog.eventType(event.getClass()).getBytes(StandardCharsets.UTF_8));
        }
        return serialize(topic, event);
    }
}
