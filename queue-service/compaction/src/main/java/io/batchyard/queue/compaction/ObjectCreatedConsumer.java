package io.batchyard.queue.compaction;

import io.batchyard.eventing.InvalidEventException;
import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.queue.ObjectCreated;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Registers small objects announced on {@code batchyard.queue.objects} through
 * {@link ObjectRegistrationService#apply}. The registration is idempotent per object too, so a producer that
 * re-announces an object under a new event id changes nothing either. A record that is not an ObjectCreated is
 * dead-lettered; a transient failure retries the same record.
 */
@ApplicationScoped
public class ObjectCreatedConsumer {

    private final ObjectRegistrationService registration;
    private final RecordProcessor records;

    public ObjectCreatedConsumer(ObjectRegistrationService registration, RecordProcessor records) {
        this.registration = registration;
        this.records = records;
    }

    @Incoming("objects")
    public Uni<Void> consume(Message<SpecificRecord> record) {
        return records.process(ObjectRegistrationService.CONSUMER, record, event -> {
            if (!(event instanceof ObjectCreated created)) {
                throw new InvalidEventException(event.getClass().getSimpleName() + " does not belong on the objects topic");
            }
            return registration.apply(created);
        });
    }
}
