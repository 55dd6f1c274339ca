package io.batchyard.lineage.registry;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/** The registry topic, for the application of each process ({@link RegistryService#apply}); a transient failure retries. */
@ApplicationScoped
public class RegistryConsumer {

    private final RegistryService registry;
    private final RecordProcessor records;

    public RegistryConsumer(RegistryService registry, RecordProcessor records) {
        this.registry = registry;
        this.records = records;
    }

    @Incoming("registry")
    public Uni<Void> consume(Message<SpecificRecord> record) {
        return records.process(RegistryService.CONSUMER, record, registry::apply);
    }
}
