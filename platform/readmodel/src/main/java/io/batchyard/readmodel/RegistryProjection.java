package io.batchyard.readmodel;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Keeps {@code process_definition} in step with the registry: each record of the registry topic goes to
 * {@link ProcessDefinitionService#project}. A transient failure retries the same record.
 */
@ApplicationScoped
public class RegistryProjection {

    private final ProcessDefinitionService service;
    private final RecordProcessor records;

    public RegistryProjection(ProcessDefinitionService service, RecordProcessor records) {
        this.service = service;
        this.records = records;
    }

    @Incoming("registry-processes")
    public Uni<Void> consume(Message<SpecificRecord> record) {
        return records.process(ProcessDefinitionService.CONSUMER, record, service::project);
    }
}
