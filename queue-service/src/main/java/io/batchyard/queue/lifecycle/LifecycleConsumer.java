package io.batchyard.queue.lifecycle;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Applies execution-service's lifecycle events a polled batch at a time ({@code batch=true}): the whole batch in one
 * transaction through {@link LifecycleService#applyAll}, and, if one of its events can never apply, its events one by
 * one through {@link LifecycleService#apply} so that only that one is dead-lettered ({@link RecordProcessor#processBatch}).
 * A transient failure (lost connection, deadlock) retries the same batch until it succeeds. Each fan-out is timed once
 * its transaction has committed ({@link FanOutLatency}).
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
    public Uni<Void> consume(Message<List<SpecificRecord>> batch) {
        return records.processBatch(LifecycleService.CONSUMER, batch,
                events -> lifecycle.applyAll(events).invoke(applied -> {
                    for (int i = 0; i < events.size(); i++) {
                        fanOut.committed(events.get(i), applied.get(i));
                    }
                }),
                event -> lifecycle.apply(event).invoke(applied -> fanOut.committed(event, applied)));
    }
}
