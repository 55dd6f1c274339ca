package io.batchyard.lineage.process;

import static io.batchyard.lineage.LineageError.UNKNOWN_BATCH;
import static io.batchyard.lineage.LineageError.UNKNOWN_PROCESS;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
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
import io.batchyard.lineage.access.ProcessAccess;
import io.batchyard.lineage.process.ProcessLineage.Enqueue;
import io.batchyard.lineage.process.ProcessLineage.ProcessEdge;
import io.batchyard.lineage.process.ProcessLineage.Run;
import io.batchyard.lineage.process.ProcessLineage.StepRun;
import io.batchyard.lineage.process.ProjectionFold.Consumption;
import io.batchyard.lineage.process.ProjectionFold.Write;
import io.batchyard.persistence.InOrder;
import io.batchyard.schemas.Events;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.apache.avro.specific.SpecificRecord;

/**
 * Process lineage: the projection from run and batch events, and its reads. Which run produced a batch
 * (JobStarted/JobHalted target batch), where the batch was offered (BatchEnqueued), and which run consumed it
 * (BatchesArchived). Each event is applied once through the ledger; every write is an upsert, because the two topics
 * interleave in any order. The reads answer a caller who may read the application of the process they are about
 * (a batch's: the process that produced it), and show of other processes only those the caller may read too.
 */
@ApplicationScoped
public class ProcessLineageService {

    /** Ledger name shared by the lifecycle and batches consumers. */
    public static final String CONSUMER = "lineage-process";

    private final ProcessLineageRepository lineage;
    private final ProcessedEventLedger ledger;
    private final RunTransitions transitions;
    private final ProcessAccess access;

    public ProcessLineageService(ProcessLineageRepository lineage, ProcessedEventLedger ledger,
                                 RunTransitions transitions, ProcessAccess access) {
        this.lineage = lineage;
        this.ledger = ledger;
        this.transitions = transitions;
        this.access = access;
    }

    /** Applies one event once, with its ledger row, in one transaction; other events say nothing about lineage. */
    @WithTransaction
    public Uni<Void> apply(SpecificRecord event) {
        if (!aboutLineage(event)) {
            return Uni.createFrom().voidItem();
        }
        return ledger.once(CONSUMER, event, () -> project(RecordBatch.of(List.of(event)), List.of(true)))
                .replaceWithVoid();
    }

    /**
     * Applies a polled batch in one transaction: one ledger statement for its lineage events, then the first-time
     * ones' projection ({@link #project}). A batch that fails with poison is applied again one event at a time
     * ({@link #apply}) by the consumer.
     */
    @WithTransaction
    public Uni<Void> applyAll(RecordBatch<SpecificRecord> events) {
        RecordBatch<SpecificRecord> lineageEvents = events.filter(ProcessLineageService::aboutLineage);
        if (lineageEvents.size() == 0) {
            return Uni.createFrom().voidItem();
        }
        // Nothing is written per event while the ledger records them: which ones are first-time is all it answers.
        return ledger.onceAll(CONSUMER, lineageEvents, event -> Uni.createFrom().voidItem())
                .chain(first -> project(lineageEvents, first));
    }

    private static boolean aboutLineage(SpecificRecord event) {
        return event instanceof JobStarted || event instanceof JobHalted || event instanceof JobFailed
                || event instanceof StepStarted || event instanceof StepHalted || event instanceof StepFailed
                || event instanceof BatchEnqueued || event instanceof BatchesArchived;
    }

    /** A first-time event: its position in the batch, what it writes and, for a run or step, its transition. */
    private record Applied(int index, Write write, RunTransitions.Transition transition) {
    }

    /**
     * Projects the events {@code first} marks: at most one statement per table for their rows, folded per run and
     * step run ({@link ProjectionFold}), then each one's transition in the batch's order, in its record's scope. A
     * run or step run the fold leaves to be written one event at a time gets each row just before its transition.
     */
    private Uni<Void> project(RecordBatch<SpecificRecord> events, List<Boolean> first) {
        List<Applied> applied = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            if (first.get(i)) {
                applied.add(applied(i, events.get(i)));
            }
        }
        ProjectionFold.Plan plan = ProjectionFold.plan(applied.stream().map(Applied::write).toList(),
                transitions.readsProjection());
        return lineage.upsertStepRuns(plan.steps())
                .chain(() -> lineage.upsertRuns(plan.runs()))
                .chain(() -> lineage.insertEnqueues(plan.enqueues()))
                .chain(() -> lineage.insertConsumptions(plan.consumptions()))
                .chain(() -> InOrder.each(IntStream.range(0, applied.size()).boxed().toList(), position ->
                        transition(events, applied.get(position), plan.oneByOne().contains(position))));
    }

    /**
     * A run or step event's transition, in its record's scope, after its row: written before, or now when it is
     * written on its own (only run and step run rows ever are). Offers and archives have none.
     */
    private Uni<Void> transition(RecordBatch<SpecificRecord> events, Applied event, boolean alone) {
        if (event.transition() == null) {
            return Uni.createFrom().voidItem();
        }
        Write w = event.write();
        return events.around(event.index(), () -> (!alone ? Uni.createFrom().voidItem()
                : w.run() != null ? lineage.upsertRuns(List.of(w.run())) : lineage.upsertStepRuns(List.of(w.step())))
                .chain(() -> transitions.changed(event.transition())));
    }

    private static Applied applied(int index, SpecificRecord event) {
        OffsetDateTime at = OffsetDateTime.ofInstant(Events.headerOf(event).getOccurredAt(), ZoneOffset.UTC);
        if (event instanceof JobStarted e) {
            return run(index, new Run(e.getInstanceExecId(), e.getProcessId(), e.getTargetBatchId(),
                    e.getTargetBatchMarking(), "RUNNING", at, null), at, null);
        } else if (event instanceof JobHalted e) {
            return run(index, new Run(e.getInstanceExecId(), e.getProcessId(), e.getTargetBatchId(),
                    e.getBatchMarking(), "SUCCESS", null, at), at, null);
        } else if (event instanceof JobFailed e) {
            return run(index, new Run(e.getInstanceExecId(), e.getProcessId(), e.getTargetBatchId(), null, "FAILED",
                    null, at), at, e.getErrorText());
        } else if (event instanceof StepStarted e) {
            return step(index, e.getSubInstanceExecId(), e.getSubProcessId(), e.getParentProcessId(),
                    e.getParentInstanceExecId(), "RUNNING", at);
        } else if (event instanceof StepHalted e) {
            return step(index, e.getSubInstanceExecId(), e.getSubProcessId(), e.getParentProcessId(),
                    e.getParentInstanceExecId(), "SUCCESS", at);
        } else if (event instanceof StepFailed e) {
            return step(index, e.getSubInstanceExecId(), e.getSubProcessId(), e.getParentProcessId(),
                    e.getParentInstanceExecId(), "FAILED", at);
        } else if (event instanceof BatchEnqueued e) {
            return new Applied(index, Write.of(new Enqueue(e.getQueueId(), e.getSourceBatchId(),
                    e.getSourceProcessId(), e.getConsumerProcessId(), e.getBatchMarking(), at)), null);
        }
        BatchesArchived e = (BatchesArchived) event;
        return new Applied(index, Write.of(e.getSourceBatchIds().stream().map(source -> new Consumption(
                e.getParentProcessId(), e.getTargetBatchId(), source, at)).toList()), null);
    }

    private static Applied run(int index, Run row, OffsetDateTime at, String error) {
        return new Applied(index, Write.of(row),
                new RunTransitions.Transition(row.instanceExecId(), false, row.state(), at, error));
    }

    /** A step's row as its event upserts it: started then, and ended then unless it starts. */
    private static Applied step(int index, long sub, long subProcess, long parent, long parentRun, String state,
                                OffsetDateTime at) {
        return new Applied(index, Write.of(new StepRun(sub, subProcess, parent, parentRun, state, at,
                "RUNNING".equals(state) ? null : at)), new RunTransitions.Transition(sub, true, state, at, null));
    }

    /**
     * Lineage by batch; a batch that no run, queue or archive names is "Invalid Target BatchId", and so is one whose
     * producing process (its run's, else the one its queue offers name) the caller may not read. Runs and offers of
     * other processes the caller may not read are left out.
     */
    @WithSession
    public Uni<BatchLineage> batch(Caller caller, long batchId) {
        Supplier<ApiException> unknown = () -> UNKNOWN_BATCH.exception(
                "Invalid Target BatchId: no run, queue or archive names batch " + batchId);
        return lineage.producerOf(batchId).chain(producer -> lineage.sourcesOf(batchId)
                .chain(sources -> InOrder.map(sources, s -> lineage.producerOf(s)
                        .map(p -> new BatchLineage.SourceBatch(s, p.orElse(null)))))
                .chain(sources -> lineage.enqueues(batchId).chain(enqueues -> lineage.consumersOf(batchId)
                        .map(consumers -> {
                            if (producer.isEmpty() && sources.isEmpty() && enqueues.isEmpty() && consumers.isEmpty()) {
                                throw unknown.get();
                            }
                            return new BatchLineage(batchId, producer.orElse(null), sources, enqueues, consumers);
                        }))))
                .chain(found -> readableBatch(caller, found, unknown));
    }

    private Uni<BatchLineage> readableBatch(Caller caller, BatchLineage b, Supplier<ApiException> unknown) {
        Long owner = b.producedBy() != null ? b.producedBy().processId() : b.enqueuedTo().stream()
                .map(Enqueue::sourceProcessId).filter(Objects::nonNull).findFirst().orElse(null);
        if (owner == null && !caller.admin()) {
            // No process is known to have produced it: like a process of an unknown application, admins only.
            return Uni.createFrom().failure(unknown.get());
        }
        Uni<Void> check = owner == null ? Uni.createFrom().voidItem()
                : access.require(caller, owner, Permission.READ, "batch " + b.batchId(), unknown);
        Set<Long> others = new HashSet<>();
        b.sources().stream().filter(s -> s.producedBy() != null).forEach(s -> others.add(s.producedBy().processId()));
        b.enqueuedTo().forEach(e -> others.add(e.consumerProcessId()));
        b.consumedBy().forEach(r -> others.add(r.processId()));
        return check.chain(() -> access.readableAmong(caller, others)).map(shown -> new BatchLineage(b.batchId(),
                b.producedBy(),
                b.sources().stream().map(s -> s.producedBy() == null || shown.test(s.producedBy().processId()) ? s
                        : new BatchLineage.SourceBatch(s.sourceBatchId(), null)).toList(),
                b.enqueuedTo().stream().filter(e -> shown.test(e.consumerProcessId())).toList(),
                b.consumedBy().stream().filter(r -> shown.test(r.processId())).toList()));
    }

    /**
     * The process's latest runs and its hand-overs; a process no event has named, or whose application the caller
     * may not read, is unknown. Hand-overs from or to processes the caller may not read are left out.
     */
    @WithSession
    public Uni<ProcessLineage> process(Caller caller, long processId, int runs) {
        Supplier<ApiException> unknown = () -> UNKNOWN_PROCESS.exception(
                "no run or batch event has named process " + processId);
        return lineage.knows(processId).chain(known -> {
            if (!known) {
                throw unknown.get();
            }
            return access.require(caller, processId, Permission.READ, "process " + processId, unknown);
        }).chain(() -> lineage.runsOf(processId, runs).chain(r -> lineage.edges(processId, true)
                .chain(upstream -> lineage.edges(processId, false)
                        .chain(downstream -> readableEdges(caller, upstream, downstream)
                                .map(shown -> new ProcessLineage(processId, r,
                                        upstream.stream().filter(e -> e.fromProcessId() == null
                                                || shown.test(e.fromProcessId())).toList(),
                                        downstream.stream().filter(e -> shown.test(e.toProcessId())).toList()))))));
    }

    private Uni<Predicate<Long>> readableEdges(Caller caller, List<ProcessEdge> upstream,
                                               List<ProcessEdge> downstream) {
        Set<Long> others = new HashSet<>();
        upstream.stream().map(ProcessEdge::fromProcessId).filter(Objects::nonNull).forEach(others::add);
        downstream.forEach(e -> others.add(e.toProcessId()));
        return access.readableAmong(caller, others);
    }
}
