package io.batchyard.queue.consumption;

import static io.batchyard.api.LifecycleError.BATCH_NOT_QUEUED;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.queue.access.AccessChecks;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import io.batchyard.queue.access.Visibility;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The consumption queue. Its reads for callers (the queue, its archive and lineage by batch) run each in one session
 * and show only rows of consuming steps whose application (their parent's) the caller may read. The other methods
 * are steps of other features' use cases (enqueueing a batch, a claim, a lifecycle event): they join the caller's
 * transaction, whose checks came first.
 */
@ApplicationScoped
public class QueueService {

    private final ConsumptionQueueRepository queue;
    private final AccessChecks access;

    public QueueService(ConsumptionQueueRepository queue, AccessChecks access) {
        this.queue = queue;
        this.access = access;
    }

    @WithSession
    public Uni<Page<QueueRow>> queue(Caller caller, PageRequest page, Long processId, Integer state) {
        return access.visibility(caller).chain(visible -> queue.list(processId, state, visible, page.limit(),
                        page.offset())
                .chain(rows -> queue.count(processId, state, visible).map(total -> Page.of(rows, total, page))));
    }

    @WithSession
    public Uni<Page<QueueRow>> archive(Caller caller, PageRequest page, Long processId) {
        return access.visibility(caller).chain(visible -> queue.archived(processId, visible, page.limit(),
                        page.offset())
                .chain(rows -> queue.archivedCount(processId, visible).map(total -> Page.of(rows, total, page))));
    }

    /**
     * The inputs of a run's target batch; 114 when no row was ever claimed by it, or none of a step the caller may
     * read (a run's rows are its parent's steps', so they are all readable or none is).
     */
    @WithSession
    public Uni<List<BatchLineage>> lineage(Caller caller, long targetBatchId) {
        return access.visibility(caller).chain(visible -> queue.lineage(targetBatchId, visible)).invoke(rows -> {
            if (rows.isEmpty()) {
                throw BATCH_NOT_QUEUED.exception("Invalid Target BatchId " + targetBatchId);
            }
        });
    }

    /** The rows of these steps, queued and claimed. */
    public Uni<List<QueueRow>> rowsOf(Collection<Long> stepIds) {
        return queue.rowsOf(stepIds);
    }

    /** Offers a batch to a step; empty when it is already queued for the step. */
    public Uni<Optional<Long>> enqueue(long sourceBatchId, Long sourceProcessId, String marking, long processId) {
        return queue.enqueue(sourceBatchId, sourceProcessId, marking, processId);
    }

    /**
     * Binds queue rows (of every step of a run) to the run's target batch in one statement; those in {@code accessed}
     * are marked Accessed too.
     */
    public Uni<Integer> claim(Collection<Long> queueIds, Collection<Long> accessed, long targetBatchId) {
        return queue.claim(queueIds, accessed, targetBatchId);
    }

    /** A retried run: the rows of its target batch that are not Processed are accessed again. */
    public Uni<Integer> reaccess(long targetBatchId) {
        return queue.reaccess(targetBatchId);
    }

    /** InitStep, HaltStep and TermStep: the marks gathered, in one statement ({@link StepMarks}). */
    public Uni<Integer> mark(StepMarks marks) {
        return queue.mark(marks.drain());
    }

    /** Moves a completed run's rows to the archive; the rows moved. */
    public Uni<List<QueueRow>> archive(long targetBatchId) {
        return queue.archive(targetBatchId);
    }

    /** The optional "latest batch wins" policy: drops unclaimed rows a parent enqueued earlier. */
    public Uni<Integer> dropPending(long sourceProcessId) {
        return queue.dropPending(sourceProcessId);
    }

    /** The steps a batch is queued for, among those of applications {@code visibility} lets the caller see. */
    public Uni<List<Long>> processesHolding(long batchId, Visibility visibility) {
        return queue.processesHolding(batchId, visibility);
    }
}
