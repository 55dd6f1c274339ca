package io.batchyard.lineage.process;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Run events ({@code lifecycle}) and batch events ({@code batches}) for process lineage, applied by
 * {@link ProcessLineageService#apply}. A transient failure retries the same record, so a database blip never leaves a
 * run RUNNING that has ended.
 */
@ApplicationScoped
public class ProcessLineageConsumer {

    private final ProcessLineageService lineage;
    private final RecordProcessor records;

    public ProcessLineageConsumer(ProcessLineageService lineage, RecordProcessor records) {
        this.lineage = lineage;
        this.records = records;
    }

    @Incoming("lifecycle")
    public Uni<Void> lifecycle(Message<SpecificRecord> record) {
        return records.process(ProcessLineageService.CONSUMER, record, lineage::apply);
    }

    @Incoming("batches")
    public Uni<Void> batches(Message<SpecificRecord> record) {
        return records.process(ProcessLineageService.CONSUMER, record, lineage::apply);
    }
}
