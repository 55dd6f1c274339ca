package io.batchyard.schemas;

import io.batchyard.events.EventHeader;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecord;

/** Helpers every producer and consumer uses to build and read the event envelope. */
public final class Events {

    private Events() {
    }

    public static EventHeader header(String producer, Long instanceExecId, String correlationId) {
        return header(Clock.systemUTC(), producer, instanceExecId, correlationId);
    }

    public static EventHeader header(Clock clock, String producer, Long instanceExecId, String correlationId) {
        return EventHeader.newBuilder()
                .setEventId(UUID.randomUUID().toString())
                // timestamp-millis: truncate so a decoded event equals the one encoded.
                .setOccurredAt(Instant.now(clock).truncatedTo(ChronoUnit.MILLIS))
                .setProducer(producer)
                .setSchemaVersion(1)
                .setInstanceExecId(instanceExecId)
                .setCorrelationId(correlationId)
                .build();
    }

    /** Every catalogued event has {@code header} as its first field. */
    public static EventHeader headerOf(SpecificRecord event) {
        Object header = event.get(0);
        if (!(header instanceof EventHeader h)) {
            throw new IllegalArgumentException(event.getSchema().getFullName() + " has no EventHeader as first field");
        }
        return h;
    }

    public static UUID eventId(SpecificRecord event) {
        return UUID.fromString(headerOf(event).getEventId());
    }
}
