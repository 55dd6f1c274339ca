package io.batchyard.lineage.openlineage.push;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.lineage.OpenLineageRunEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The RunEvents lineage-service queued on {@code batchyard.lineage.openlineage}, delivered by
 * {@link OpenLineageDeliveryService}: one channel (and consumer group) per transport, each in the topic's order, which
 * is each run's order. A transient failure retries the same record; a refused or undecodable record is dead-lettered.
 */
@ApplicationScoped
public class OpenLineageConsumer {

    private final OpenLineageDeliveryService delivery;
    private final RecordProcessor records;

    public OpenLineageConsumer(OpenLineageDeliveryService delivery, RecordProcessor records) {
        this.delivery = delivery;
        this.records = records;
    }

    @Incoming("openlineage-http")
    public Uni<Void> http(Message<SpecificRecord> record) {
        return records.process(OpenLineageDeliveryService.HTTP, record, event -> event instanceof OpenLineageRunEvent e
                ? delivery.http(e) : Uni.createFrom().voidItem());
    }

    @Incoming("openlineage-kafka")
    public Uni<Void> kafka(Message<SpecificRecord> record) {
        return records.process(OpenLineageDeliveryService.KAFKA, record, event -> event instanceof OpenLineageRunEvent e
                ? delivery.kafka(e) : Uni.createFrom().voidItem());
    }
}
