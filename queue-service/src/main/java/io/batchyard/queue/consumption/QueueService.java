package io.batchyard.queue.consumption;

import static io.batchyard.api.LifecycleError.BATCH_NOT_QUEUED;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Reads of the consumption queue, its archive and lineage by batch; each in one session. */
@ApplicationScoped
public class QueueService {

    private final ConsumptionQueueRepository queue;

    public QueueService(ConsumptionQueueRepository queue) {
        this.queue = queue;
    }

    @WithSession
    public Uni<Page<QueueRow>> queue(PageRequest page, Long processId, Integer state) {
        return queue.list(processId, state, page.limit(), page.offset())
                .chain(rows -> queue.count(processId, state).map(total -> Page.of(rows, total, page)));
    }

    @WithSession
    public Uni<Page<QueueRow>> archive(PageRequest page, Long processId) {
        return queue.archived(processId, page.limit(), page.offset())
                .chain(rows -> queue.archivedCount(processId).map(total -> Page.of(rows, total, page)));
    }

    /** The inputs of a run's target batch; 114 when no row was ever claimed by it. */
    @WithSession
    public Uni<List<BatchLineage>> lineage(long targetBatchId) {
        return queue.lineage(targetBatchId).invoke(rows -> {
            if (rows.isEmpty()) {
                throw BATCH_NOT_QUEUED.exception("Invalid Target BatchId " + targetBatchId);
            }
        });
    }
}
