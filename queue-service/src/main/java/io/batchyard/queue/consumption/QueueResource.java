package io.batchyard.queue.consumption;

import static io.batchyard.api.LifecycleError.BATCH_NOT_QUEUED;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.queue.batch.BatchStore;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Jdbi;

/** The consumption queue, its archive, and lineage by batch. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "queue")
public class QueueResource {

    /** One input of a run's target batch: which batch, produced by which process and run. */
    public record BatchLineage(long queueId, long sourceBatchId, Long sourceProcessId, Long sourceInstanceExecId,
                               long consumerProcessId, String batchMarking, int batchState) {
    }

    @Inject
    Jdbi jdbi;

    @Inject
    ConsumptionQueue queue;

    @Inject
    BatchStore batches;

    @GET
    @Path("queue")
    @Operation(summary = "Queued batches, oldest first (state 0 New, 1 Processed, 2 Accessed)")
    public Page<QueueRow> queue(@Valid @BeanParam PageRequest page, @QueryParam("processId") @Positive Long processId,
                                @QueryParam("state") @Min(0) @Max(2) Integer state) {
        return jdbi.withHandle(h -> Page.of(queue.list(h, processId, state, page.limit(), page.offset()),
                queue.count(h, processId, state), page));
    }

    @GET
    @Path("archive")
    @Operation(summary = "Consumed batches, moved here when their consumer's run completed")
    public Page<QueueRow> archive(@Valid @BeanParam PageRequest page, @QueryParam("processId") @Positive Long processId) {
        return jdbi.withHandle(h -> Page.of(queue.archived(h, processId, page.limit(), page.offset()),
                queue.archivedCount(h, processId), page));
    }

    @GET
    @Path("lineage/batches/{targetBatchId}")
    @Operation(summary = "The input batches of a run's target batch, with the process and run that produced each")
    public List<BatchLineage> lineage(@PathParam("targetBatchId") long targetBatchId) {
        return jdbi.withHandle(h -> {
            List<QueueRow> rows = queue.claimedBy(h, targetBatchId);
            if (rows.isEmpty()) {
                throw BATCH_NOT_QUEUED.exception("Invalid Target BatchId " + targetBatchId);
            }
            Map<Long, Long> producers = batches.producers(h, rows.stream().map(QueueRow::sourceBatchId).distinct().toList());
            return rows.stream().map(r -> new BatchLineage(r.queueId(), r.sourceBatchId(), r.sourceProcessId(),
                    producers.get(r.sourceBatchId()), r.processId(), r.batchMarking(), r.batchState())).toList();
        });
    }
}
