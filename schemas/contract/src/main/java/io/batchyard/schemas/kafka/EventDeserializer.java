package io.batchyard.schemas.kafka;

import io.batchyard.schemas.EventCodec;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Kafka deserializer for any catalogued Batchyard event (the fingerprint picks the class). Throws
 * {@link EventCodec.UnknownEventException} on foreign bytes, so consumers should route failures to a dead-letter topic.
 */
public class EventDeserializer implements Deserializer<SpecificRecord> {

    @Override
    public SpecificRecord deserialize(String topic, byte[] data) {
        return data == null ? null : EventCodec.decode(data);
    }
}
