package io.batchyard.queue.lifecycle;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.eventing.consumer.RecordProcessor;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.StepFailed;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.queue.batch.BatchStore;
import io.batchyard.queue.consumption.ConsumptionQueue;
import io.batchyard.queue.consumption.QueueRow;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitions;
import io.batchyard.schemas.BatchMarking;
import io.batchyard.schemas.Events;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;
import org.jdbi.v3.core.Handle;

/**
 * What the run lifecycle does to the queue (spec 3.2-3.6). Each event is applied once: its id enters the ledger in
 * the same transaction as its effect, so a redelivered JobHalted enqueues nothing twice. A transient failure (lost
 * connection, deadlock) retries the same event until it succeeds; only an event that can never apply is dead-lettered.
 */
@ApplicationScoped
public class LifecycleEffects {

    private static final Logger LOG = Logger.getLogger(LifecycleEffects.class);
    static final String CONSUMER = "queue-lifecycle";

    @Inject
    ProcessedEventLedger ledger;

    @Inject
    RecordProcessor records;

    @Inject
    ProcessDefinitions definitions;

    @Inject
    ConsumptionQueue queue;

    @Inject
    BatchStore batches;

    @Inject
    QueueEvents events;

    @ConfigProperty(name = "batchyard.queue.replace-pending", defaultValue = "false")
    boolean replacePending;

    @Incoming("lifecycle")
    @Blocking
    public CompletionStage<Void> consume(Message<SpecificRecord> record) {
        return records.process(CONSUMER, record, this::apply);
    }

    /** Applies one lifecycle event; false when it was a duplicate delivery. */
    public boolean apply(SpecificRecord event) {
        return ledger.processOnce(CONSUMER, event, tx -> {
            if (event instanceof StepStarted e && e.getTargetBatchId() != null) {
                queue.markStarted(tx, e.getSubProcessId(), e.getTargetBatchId());
            } else if (event instanceof StepHalted e && e.getTargetBatchId() != null) {
                queue.markProcessed(tx, e.getSubProcessId(), e.getTargetBatchId());
            } else if (event instanceof StepFailed e && e.getTargetBatchId() != null) {
                // No Failed batch state: the rows end Processed but keep their target, so the next claim retries them.
                queue.markProcessed(tx, e.getSubProcessId(), e.getTargetBatchId());
            } else if (event instanceof JobHalted e) {
                halted(tx, e);
            } else if (event instanceof JobFailed e && e.getTargetBatchId() != null) {
                batches.markFailed(tx, e.getTargetBatchId(), e.getInstanceExecId());
            }
        });
    }

    /** Archive what the run consumed, then offer its target batch to every downstream step. */
    private void halted(Handle tx, JobHalted e) {
        long parent = e.getProcessId();
        long target = e.getTargetBatchId();
        String marking = BatchMarking.normalise(e.getBatchMarking());
        String correlation = Events.headerOf(e).getEventId();
        List<QueueRow> archived = queue.archive(tx, target);
        if (replacePending) {
            queue.dropPending(tx, parent);
        }
        int enqueued = 0;
        for (ProcessDefinition downstream : definitions.consumersOf(tx, parent)) {
            Optional<Long> queueId = queue.enqueue(tx, target, parent, marking, downstream.processId());
            if (queueId.isPresent()) {
                events.enqueued(tx, queueId.get(), target, parent, downstream.processId(), marking, correlation);
                enqueued++;
            }
        }
        events.archived(tx, parent, target, archived.stream().map(QueueRow::sourceBatchId).distinct().toList(),
                e.getInstanceExecId(), correlation);
        LOG.debugf("JobHalted %d: archived %d row(s), enqueued batch %d for %d downstream step(s)", parent,
                archived.size(), target, enqueued);
    }
}
