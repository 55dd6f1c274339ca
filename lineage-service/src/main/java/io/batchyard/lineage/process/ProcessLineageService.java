package io.batchyard.lineage.process;

import static io.batchyard.lineage.LineageError.UNKNOWN_BATCH;
import static io.batchyard.lineage.LineageError.UNKNOWN_PROCESS;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.eventing.RecordBatch;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.StepFailed;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.events.queue.BatchesArchived;
import io.batchyard.lineage.InOrder;
import io.batchyard.schemas.Events;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.apache.avro.specific.SpecificRecord;

/**
 * Process lineage: the projection from run and batch events, and its reads. Which run produced a batch
 * (JobStarted/JobHalted target batch), where the batch was offered (BatchEnqueued), and which run consumed it
 * (BatchesArchived). Each event is applied once through the ledger; every write is an upsert, because the two topics
 * interleave in any order.
 */
@ApplicationScoped
public class ProcessLineageService {

    /** Ledger name shared by the lifecycle and batches consumers. */
    public static final String CONSUMER = "lineage-process";

    private final ProcessLineageRepository lineage;
    private final ProcessedEventLedger ledger;
    private final RunTransitions transitions;

    public ProcessLineageService(ProcessLineageRepository lineage, ProcessedEventLedger ledger,
                                 RunTransitions transitions) {
        this.lineage = lineage;
        this.ledger = ledger;
        this.transitions = transitions;
    }

    /** Applies one event once, with its ledger row, in one transaction; other events say nothing about lineage. */
    @WithTransaction
    public Uni<Void> apply(SpecificRecord event) {
        if (!aboutLineage(event)) {
            return Uni.createFrom().voidItem();
        }
        return ledger.once(CONSUMER, event, () -> project(event)).replaceWithVoid();
    }

    /**
     * Applies a polled batch in one transaction: one ledger statement for its lineage events, then each first-time
     * one's projection in the batch's order. A batch that fails with poison is applied again one event at a time
     * ({@link #apply}) by the consumer.
     */
    @WithTransaction
    public Uni<Void> applyAll(RecordBatch<SpecificRecord> events) {
        RecordBatch<SpecificRecord> lineageEvents = events.filter(ProcessLineageService::aboutLineage);
        if (lineageEvents.size() == 0) {
            return Uni.createFrom().voidItem();
        }
        return ledger.onceAll(CONSUMER, lineageEvents, this::project).replaceWithVoid();
    }

    private static boolean aboutLineage(SpecificRecord event) {
        return event instanceof JobStarted || event instanceof JobHalted || event instanceof JobFailed
                || event instanceof StepStarted || event instanceof StepHalted || event instanceof StepFailed
                || event instanceof BatchEnqueued || event instanceof BatchesArchived;
    }

    private Uni<Void> project(SpecificRecord event) {
        OffsetDateTime at = OffsetDateTime.ofInstant(Events.headerOf(event).getOccurredAt(), ZoneOffset.UTC);
        if (event instanceof JobStarted e) {
            return lineage.upsertRun(e.getInstanceExecId(), e.getProcessId(), e.getTargetBatchId(),
                    e.getTargetBatchMarking(), "RUNNING", at, null)
                    .chain(() -> changed(e.getInstanceExecId(), false, "RUNNING", at, null));
        } else if (event instanceof JobHalted e) {
            return lineage.upsertRun(e.getInstanceExecId(), e.getProcessId(), e.getTargetBatchId(), e.getBatchMarking(),
                    "SUCCESS", null, at).chain(() -> changed(e.getInstanceExecId(), false, "SUCCESS", at, null));
        } else if (event instanceof JobFailed e) {
            return lineage.upsertRun(e.getInstanceExecId(), e.getProcessId(), e.getTargetBatchId(), null, "FAILED", null,
                    at).chain(() -> changed(e.getInstanceExecId(), false, "FAILED", at, e.getErrorText()));
        } else if (event instanceof StepStarted e) {
            return lineage.upsertStepRun(e.getSubInstanceExecId(), e.getSubProcessId(), e.getParentProcessId(),
                    e.getParentInstanceExecId(), "RUNNING", at)
                    .chain(() -> changed(e.getSubInstanceExecId(), true, "RUNNING", at, null));
        } else if (event instanceof StepHalted e) {
            return lineage.upsertStepRun(e.getSubInstanceExecId(), e.getSubProcessId(), e.getParentProcessId(),
                    e.getParentInstanceExecId(), "SUCCESS", at)
                    .chain(() -> changed(e.getSubInstanceExecId(), true, "SUCCESS", at, null));
        } else if (event instanceof StepFailed e) {
            return lineage.upsertStepRun(e.getSubInstanceExecId(), e.getSubProcessId(), e.getParentProcessId(),
                    e.getParentInstanceExecId(), "FAILED", at)
                    .chain(() -> changed(e.getSubInstanceExecId(), true, "FAILED", at, null));
        } else if (event instanceof BatchEnqueued e) {
            return lineage.insertEnqueue(e.getQueueId(), e.getSourceBatchId(), e.getSourceProcessId(),
                    e.getConsumerProcessId(), e.getBatchMarking(), at);
        }
        BatchesArchived e = (BatchesArchived) event;
        return InOrder.each(e.getSourceBatchIds(), source -> lineage.insertConsumption(e.getParentProcessId(),
                e.getTargetBatchId(), source, at));
    }

    private Uni<Void> changed(long run, boolean step, String state, OffsetDateTime at, String error) {
        return transitions.changed(new RunTransitions.Transition(run, step, state, at, error));
    }

    /** Lineage by batch; a batch that no run, queue or archive names is "Invalid Target BatchId". */
    @WithSession
    public Uni<BatchLineage> batch(long batchId) {
        return lineage.producerOf(batchId).chain(producer -> lineage.sourcesOf(batchId)
                .chain(sources -> InOrder.map(sources, s -> lineage.producerOf(s)
                        .map(p -> new BatchLineage.SourceBatch(s, p.orElse(null)))))
                .chain(sources -> lineage.enqueues(batchId).chain(enqueues -> lineage.consumersOf(batchId)
                        .map(consumers -> {
                            if (producer.isEmpty() && sources.isEmpty() && enqueues.isEmpty() && consumers.isEmpty()) {
                                throw UNKNOWN_BATCH.exception("Invalid Target BatchId: no run, queue or archive names batch "
                                        + batchId);
                            }
                            return new BatchLineage(batchId, producer.orElse(null), sources, enqueues, consumers);
                        }))));
    }

    /** The process's latest runs and its hand-overs; a process no event has named is unknown. */
    @WithSession
    public Uni<ProcessLineage> process(long processId, int runs) {
        return lineage.knows(processId).chain(known -> {
            if (!known) {
                throw UNKNOWN_PROCESS.exception("no run or batch event has named process " + processId);
            }
            return lineage.runsOf(processId, runs).chain(r -> lineage.edges(processId, true)
                    .chain(upstream -> lineage.edges(processId, false)
                            .map(downstream -> new ProcessLineage(processId, r, upstream, downstream))));
        });
    }
}
