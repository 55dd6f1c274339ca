package io.batchyard.queue.consumption;

import static io.batchyard.api.LifecycleError.BATCH_NOT_QUEUED;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.queue.access.AccessChecks;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * Reads of the consumption queue, its archive and lineage by batch; each in one session, and each shows only rows of
 * consuming steps whose application (their parent's) the caller may read.
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
}
