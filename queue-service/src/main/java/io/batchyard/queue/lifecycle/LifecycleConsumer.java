package io.batchyard.queue.lifecycle;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Applies execution-service's lifecycle events through {@link LifecycleService#apply}. A transient failure (lost
 * connection, deadlock) retries the same event until it succeeds; only an event that can never apply is dead-lettered.
 * A fan-out is timed once its transaction has committed ({@link FanOutLatency}).
 */
@ApplicationScoped
public class LifecycleConsumer {

    private final LifecycleService lifecycle;
    private final RecordProcessor records;
    private final FanOutLatency fanOut;

    public LifecycleConsumer(LifecycleService lifecycle, RecordProcessor records, FanOutLatency fanOut) {
        this.lifecycle = lifecycle;
        this.records = records;
        this.fanOut = fanOut;
    }

    @Incoming("lifecycle")
    public Uni<Void> consume(Message<SpecificRecord> record) {
        return records.process(LifecycleService.CONSUMER, record,
                event -> lifecycle.apply(event).invoke(applied -> fanOut.committed(event, applied)));
    }
}
