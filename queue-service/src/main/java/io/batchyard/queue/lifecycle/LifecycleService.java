package io.batchyard.queue.lifecycle;

import io.batchyard.eventing.ProcessedEventLedger;
import io.batchyard.eventing.RecordBatch;
import io.batchyard.events.execution.JobFailed;
import io.batchyard.events.execution.JobHalted;
import io.batchyard.events.execution.StepFailed;
import io.batchyard.events.execution.StepHalted;
import io.batchyard.events.execution.StepStarted;
import io.batchyard.persistence.InOrder;
import io.batchyard.queue.batch.BatchService;
import io.batchyard.queue.claim.Claim;
import io.batchyard.queue.batch.QueueEvents;
import io.batchyard.queue.consumption.QueueRow;
import io.batchyard.queue.consumption.QueueService;
import io.batchyard.queue.consumption.StepMarks;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.batchyard.schemas.BatchMarking;
import io.batchyard.schemas.Events;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.specific.SpecificRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * What the lifecycle calls after InitJob (InitStep, HaltStep, TermStep, HaltJob, TermJob) do to the queue. Each event
 * is applied once: its id enters the ledger in the same transaction as its effect, its check, and the events it causes
 * (the fan-out's BatchEnqueued, the BatchesArchived), so a redelivered JobHalted enqueues nothing twice and a refused
 * one leaves no trace.
 *
 * <p>Before it touches anything, a transaction here locks the read-model rows of the parents its events belong to,
 * in id order: the lock InitJob's claim takes first. A run's queue rows are then only ever locked under their
 * parent's lock, so a claim that archives the last run's target waits for a lifecycle batch that is marking or
 * archiving the same rows (or the batch waits for the claim) instead of each holding some of the rows the other
 * wants. PostgreSQL would break such a deadlock, but only after {@code deadlock_timeout} (a second by default),
 * and that second stalled InitJob and every event behind the batch.
 */
@ApplicationScoped
public class LifecycleService {

    private static final Logger LOG = Logger.getLogger(LifecycleService.class);
    static final String CONSUMER = "queue-lifecycle";

    /**
     * What applying one event did: {@code first} is false for a duplicate delivery, {@code enqueued} the downstream
     * queue rows (and {@code BatchEnqueued} events) a {@code JobHalted} created.
     */
    public record Applied(boolean first, int enqueued) {
    }

    private final ProcessedEventLedger ledger;
    private final ProcessDefinitionRepository definitions;
    private final QueueService queue;
    private final BatchService batches;
    private final QueueEvents events;
    private final LifecycleCheck check;
    private final boolean replacePending;

    public LifecycleService(ProcessedEventLedger ledger, ProcessDefinitionRepository definitions,
                            QueueService queue, BatchService batches, QueueEvents events,
                            LifecycleCheck check,
                            @ConfigProperty(name = "batchyard.queue.replace-pending", defaultValue = "false")
                            boolean replacePending) {
        this.ledger = ledger;
        this.definitions = definitions;
        this.queue = queue;
        this.batches = batches;
        this.events = events;
        this.check = check;
        this.replacePending = replacePending;
    }

    /**
     * Applies one lifecycle event and says what it did ({@link Applied}). Each event is first checked against the
     * run's claim ({@link LifecycleCheck}); one that contradicts it fails with
     * {@link io.batchyard.eventing.InvalidEventException} and its transaction, ledger entry included, rolls back.
     */
    @WithTransaction
    public Uni<Applied> apply(SpecificRecord event) {
        AtomicInteger enqueued = new AtomicInteger();
        LifecycleCheck.Known known = check.nothingKnown();
        StepMarks marks = new StepMarks();
        return definitions.lockAll(parentsOf(List.of(event)))
                .chain(() -> ledger.once(CONSUMER, event, () -> effect(known, event, enqueued, marks)))
                .call(() -> queue.mark(marks))
                .map(first -> new Applied(first, enqueued.get()));
    }

    /**
     * Applies a polled batch of lifecycle events in one transaction, in order, and says what each did: one ledger
     * statement for all of them ({@link ProcessedEventLedger#onceAll}), then each first-time event's effect as
     * {@link #apply} runs it. The steps' marks of consecutive step events go to the queue together, in one statement
     * before the next job event's effect (which may archive those rows) or at the end. One event that contradicts its
     * run's claim fails the whole batch and rolls it back;
     * the consumer then applies the batch's events one by one ({@link #apply}), so only that one is dead-lettered.
     *
     * @return per event, in the list's order, what applying it did ({@code first} false for a repeat)
     */
    @WithTransaction
    public Uni<List<Applied>> applyAll(RecordBatch<SpecificRecord> events) {
        Map<SpecificRecord, AtomicInteger> enqueued = new IdentityHashMap<>();
        events.payloads().forEach(event -> enqueued.put(event, new AtomicInteger()));
        StepMarks marks = new StepMarks();
        return definitions.lockAll(parentsOf(events.payloads()))
                .chain(() -> check.prefetch(events.payloads()))
                .chain(known -> ledger.onceAll(CONSUMER, events,
                        event -> effect(known, event, enqueued.get(event), marks)))
                .call(() -> queue.mark(marks))
                .map(first -> {
                    List<Applied> applied = new ArrayList<>(events.size());
                    for (int i = 0; i < events.size(); i++) {
                        applied.add(new Applied(first.get(i), enqueued.get(events.get(i)).get()));
                    }
                    return applied;
                });
    }

    /** The parents whose runs' rows the events touch (see the class comment), each once. */
    static Set<Long> parentsOf(List<SpecificRecord> events) {
        Set<Long> parents = new TreeSet<>();
        for (SpecificRecord event : events) {
            if (event instanceof StepStarted e) {
                parents.add(e.getParentProcessId());
            } else if (event instanceof StepHalted e) {
                parents.add(e.getParentProcessId());
            } else if (event instanceof StepFailed e) {
                parents.add(e.getParentProcessId());
            } else if (event instanceof JobHalted e) {
                parents.add(e.getProcessId());
            } else if (event instanceof JobFailed e) {
                parents.add(e.getProcessId());
            }
        }
        return parents;
    }

    /** A step event's effect is a mark gathered in {@code marks}; a job event's first writes the marks gathered. */
    private Uni<?> effect(LifecycleCheck.Known known, SpecificRecord event, AtomicInteger enqueued, StepMarks marks) {
        if (event instanceof StepStarted e) {
            return check.step(known, "StepStarted", e.getParentProcessId(), e.getSubProcessId(),
                    e.getParentInstanceExecId(), e.getTargetBatchId())
                    .invoke(() -> marks.started(e.getSubProcessId(), e.getTargetBatchId()));
        }
        if (event instanceof StepHalted e) {
            return check.step(known, "StepHalted", e.getParentProcessId(), e.getSubProcessId(),
                    e.getParentInstanceExecId(), e.getTargetBatchId())
                    .invoke(() -> marks.ended(e.getSubProcessId(), e.getTargetBatchId()));
        }
        if (event instanceof StepFailed e) {
            // No Failed batch state: the rows end Processed but keep their target, so the next claim retries them.
            return check.step(known, "StepFailed", e.getParentProcessId(), e.getSubProcessId(),
                    e.getParentInstanceExecId(), e.getTargetBatchId())
                    .invoke(() -> marks.ended(e.getSubProcessId(), e.getTargetBatchId()));
        }
        if (!marks.isEmpty() && (event instanceof JobHalted || event instanceof JobFailed)) {
            return queue.mark(marks).chain(() -> effect(known, event, enqueued, marks));
        }
        if (event instanceof JobHalted e) {
            return check.halted(known, "JobHalted", e.getProcessId(), e.getInstanceExecId(), e.getTargetBatchId())
                    .chain(() -> known.claim(e.getInstanceExecId()))
                    .chain(claim -> halted(e, claim.map(Claim::backfillId).orElse(null) != null, enqueued));
        }
        if (event instanceof JobFailed e) {
            return check.failed(known, "JobFailed", e.getProcessId(), e.getInstanceExecId(), e.getTargetBatchId())
                    .chain(() -> batches.markFailed(e.getTargetBatchId(), e.getInstanceExecId()));
        }
        return Uni.createFrom().voidItem();
    }

    /**
     * Archive what the run consumed, then offer its target batch to every downstream step. A backfill's run offers it
     * to nobody: it re-does history, and the backfill offers its output to exactly the runs it re-does next.
     */
    private Uni<Void> halted(JobHalted e, boolean backfill, AtomicInteger enqueued) {
        long parent = e.getProcessId();
        long target = e.getTargetBatchId();
        String marking = BatchMarking.normalise(e.getBatchMarking());
        String correlation = Events.headerOf(e).getEventId();
        return queue.archive(target).call(() -> replacePending ? queue.dropPending(parent) : Uni.createFrom().voidItem())
                .call(() -> (backfill ? Uni.createFrom().item(List.<ProcessDefinition>of())
                        : definitions.consumersOf(parent)).chain(consumers -> InOrder.each(consumers, downstream ->
                        queue.enqueue(target, parent, marking, downstream.processId()).chain(queueId -> {
                            if (queueId.isEmpty()) {
                                return Uni.createFrom().voidItem();
                            }
                            enqueued.incrementAndGet();
                            return events.enqueued(queueId.get(), target, parent, downstream.processId(), marking,
                                    correlation);
                        }))))
                .call(archived -> events.archived(parent, target,
                        archived.stream().map(QueueRow::sourceBatchId).distinct().toList(), e.getInstanceExecId(),
                        correlation))
                .invoke(archived -> LOG.debugf("JobHalted %d: archived %d row(s), enqueued batch %d for %d downstream"
                        + " step(s)", parent, archived.size(), target, enqueued.get()))
                .replaceWithVoid();
    }
}
