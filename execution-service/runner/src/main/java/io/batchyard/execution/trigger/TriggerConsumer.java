package io.batchyard.execution.trigger;

import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.execution.runner.RunEnded;
import io.batchyard.persistence.Blocking;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Data-aware triggering: each batch enqueued for a step of a parent with a trigger policy is an input of one of the
 * parent's buckets ({@link TriggerInputService}); a run the input made due is started after the commit
 * ({@link TriggerStarts}). A run in progress queues the start, and the run's end starts the next one. Every other
 * event of the topic (BatchesArchived, ...) is acknowledged and ignored.
 */
@ApplicationScoped
public class TriggerConsumer {

    private final TriggerInputService inputs;
    private final TriggerService triggers;
    private final TriggerStarts starts;
    private final RecordProcessor records;

    public TriggerConsumer(TriggerInputService inputs, TriggerService triggers, TriggerStarts starts,
                           RecordProcessor records) {
        this.inputs = inputs;
        this.triggers = triggers;
        this.starts = starts;
        this.records = records;
    }

    @Incoming("batches")
    public Uni<Void> consume(Message<SpecificRecord> record) {
        return records.process(TriggerInputService.CONSUMER, record, this::handle);
    }

    private Uni<Void> handle(SpecificRecord event) {
        if (!(event instanceof BatchEnqueued enqueued)) {
            return Uni.createFrom().voidItem();
        }
        return inputs.withoutPolicy(enqueued).chain(optedOut -> optedOut.isPresent() ? starts.after(optedOut.get())
                : inputs.onBatch(enqueued).chain(decided -> decided.map(starts::after)
                        .orElse(Uni.createFrom().voidItem())));
    }

    /**
     * The end of a run starts what waited for it (on the runner's thread that ran it): a start queued meanwhile, or a
     * pending trigger run whose bucket was running when its data came.
     */
    void onRunEnded(@Observes RunEnded ended) {
        long parentId = ended.processId();
        boolean queued = Boolean.TRUE.equals(Blocking.await(() -> triggers.takePending(parentId)));
        boolean armed = Boolean.TRUE.equals(Blocking.await(() -> inputs.armPending(parentId)));
        if (queued || armed) {
            Blocking.await(() -> starts.start(parentId));
        }
    }
}
