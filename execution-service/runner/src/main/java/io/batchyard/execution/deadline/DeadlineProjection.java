package io.batchyard.execution.deadline;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Reads the registry topic in a group of its own, so that the deadlines of each parent reach
 * {@link DeadlineDefinitionService#project} whatever the process read model does with the same records.
 */
@ApplicationScoped
public class DeadlineProjection {

    private final DeadlineDefinitionService service;
    private final RecordProcessor records;

    public DeadlineProjection(DeadlineDefinitionService service, RecordProcessor records) {
        this.service = service;
        this.records = records;
    }

    @Incoming("deadline-definitions")
    public Uni<Void> consume(Message<SpecificRecord> record) {
        return records.process(DeadlineDefinitionService.CONSUMER, record, service::project);
    }
}
