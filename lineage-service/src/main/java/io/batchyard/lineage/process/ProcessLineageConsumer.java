package io.batchyard.lineage.process;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Run events ({@code lifecycle}) and batch events ({@code batches}) for process lineage, a polled batch at a time
 * ({@code batch=true}): each batch in one transaction through {@link ProcessLineageService#applyAll}, one event at a
 * time through {@link ProcessLineageService#apply} when the batch holds poison ({@link RecordProcessor#processBatch}).
 * A transient failure retries the same batch, so a database blip never leaves a run RUNNING that has ended.
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
    public Uni<Void> lifecycle(Message<List<SpecificRecord>> batch) {
        return records.processBatch(ProcessLineageService.CONSUMER, batch, lineage::applyAll, lineage::apply);
    }

    @Incoming("batches")
    public Uni<Void> batches(Message<List<SpecificRecord>> batch) {
        return records.processBatch(ProcessLineageService.CONSUMER, batch, lineage::applyAll, lineage::apply);
    }
}
