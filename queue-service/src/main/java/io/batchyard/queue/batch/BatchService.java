package io.batchyard.queue.batch;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.api.LifecycleError.BATCHES_OF_DIFFERENT_SUB_PROCESSES;
import static io.batchyard.api.LifecycleError.BATCH_NOT_QUEUED;
import static io.batchyard.queue.QueueError.ALREADY_QUEUED;
import static io.batchyard.queue.QueueError.BATCH_ID_OUT_OF_RANGE;
import static io.batchyard.queue.QueueError.FILE_EXISTS;
import static io.batchyard.queue.QueueError.UNKNOWN_PROCESS;

import io.batchyard.api.ChosenIds;
import io.batchyard.queue.Sequential;
import io.batchyard.queue.consumption.ConsumptionQueueRepository;
import io.batchyard.queue.consumption.QueueRow;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Batches and files (BDRE BatchEnqueuer, RegisterFile, GetFiles): each use case is one transaction, with the
 * FileRegistered and BatchEnqueued events it causes appended to the outbox in it.
 */
@ApplicationScoped
public class BatchService {

    private final BatchRepository batches;
    private final ConsumptionQueueRepository queue;
    private final ProcessDefinitionRepository definitions;
    private final QueueEvents events;

    public BatchService(BatchRepository batches, ConsumptionQueueRepository queue, ProcessDefinitionRepository definitions,
                        QueueEvents events) {
        this.batches = batches;
        this.queue = queue;
        this.definitions = definitions;
        this.events = events;
    }

    /** Registers a batch with its files and enqueues it for every live step the enqueuing process feeds. */
    @WithTransaction
    public Uni<BatchApi.Enqueued> enqueueBatch(BatchApi.EnqueueBatch request) {
        return definitions.find(request.enqueuingProcessId())
                .map(found -> found.filter(p -> p.isParent() && !p.deleted())
                        .orElseThrow(() -> UNKNOWN_PROCESS.exception("enqueuing process " + request.enqueuingProcessId()
                                + " is not a live parent process known to queue-service")))
                .chain(upstream -> batch(request.batchId()).chain(batchId -> Sequential.each(
                                request.files() == null ? List.<BatchApi.NewFile>of() : request.files(),
                                f -> addFile(new BatchRepository.FileRow(batchId, request.serverId(), f.path(), f.fileSize(),
                                        f.fileHash(), f.creationTs() == null ? OffsetDateTime.now() : f.creationTs())))
                        .chain(() -> definitions.consumersOf(upstream.processId()))
                        .map(consumers -> consumers.stream().map(ProcessDefinition::processId).toList())
                        .chain(consumers -> Sequential.each(consumers, consumer -> queue.enqueue(batchId,
                                        upstream.processId(), request.batchMarking(), consumer)
                                        .chain(queueId -> queueId.isEmpty() ? Uni.createFrom().voidItem()
                                                : events.enqueued(queueId.get(), batchId, upstream.processId(), consumer,
                                                request.batchMarking(), null)))
                                .chain(() -> queue.rowsOf(consumers)))
                        .map(rows -> new BatchApi.Enqueued(batchId,
                                rows.stream().filter(r -> r.sourceBatchId() == batchId).toList()))));
    }

    /** Puts an existing batch on one step's queue; 304 when it is already there. */
    @WithTransaction
    public Uni<QueueRow> enqueue(long batchId, BatchApi.DirectEnqueue request) {
        return batches.find(batchId)
                .invoke(found -> found.orElseThrow(() -> NOT_FOUND.exception("batch " + batchId + " does not exist")))
                .chain(() -> definitions.find(request.sourceProcessId()))
                .invoke(found -> found.filter(ProcessDefinition::isParent)
                        .orElseThrow(() -> UNKNOWN_PROCESS.exception("source process " + request.sourceProcessId()
                                + " is not a parent process known to queue-service")))
                .chain(() -> definitions.find(request.processId()))
                .invoke(found -> found.filter(p -> !p.isParent() && !p.deleted())
                        .orElseThrow(() -> UNKNOWN_PROCESS.exception("process " + request.processId()
                                + " is not a live step known to queue-service")))
                .chain(() -> queue.enqueue(batchId, request.sourceProcessId(), request.batchMarking(), request.processId()))
                .map(queueId -> queueId.orElseThrow(() -> ALREADY_QUEUED.exception("batch " + batchId
                        + " is already queued for process " + request.processId())))
                .call(queueId -> events.enqueued(queueId, batchId, request.sourceProcessId(), request.processId(),
                        request.batchMarking(), null))
                .chain(queueId -> queue.rowsOf(List.of(request.processId())).map(rows -> rows.stream()
                        .filter(r -> r.queueId() == queueId).findFirst().orElseThrow()));
    }

    @WithSession
    public Uni<BatchRepository.Batch> get(long batchId) {
        return batches.find(batchId)
                .map(found -> found.orElseThrow(() -> NOT_FOUND.exception("batch " + batchId + " does not exist")));
    }

    /** RegisterFile: a file under an existing batch, or under a new Type1 batch when none is named. */
    @WithTransaction
    public Uni<BatchRepository.FileRow> registerFile(BatchApi.RegisterFile r) {
        Uni<Long> batch = r.batchId() == null || r.batchId() == 0 ? batches.create(null, "Type1")
                : batches.find(r.batchId()).map(found -> found.map(BatchRepository.Batch::batchId)
                        .orElseThrow(() -> NOT_FOUND.exception("batch " + r.batchId() + " does not exist")));
        return batch.map(batchId -> new BatchRepository.FileRow(batchId, r.serverId(), r.path(), r.fileSize(),
                        r.fileHash(), r.creationTs() == null ? OffsetDateTime.now() : r.creationTs()))
                .call(this::addFile);
    }

    /** GetFiles: files of the batches min..max; with a step, both must be queued for it, else for one same step. */
    @WithSession
    public Uni<List<BatchRepository.FileRow>> files(long min, long max, Long processId) {
        return queue.processesHolding(min).chain(holdingMin -> queue.processesHolding(max).invoke(holdingMax -> {
            Set<Long> holdMin = new HashSet<>(holdingMin);
            Set<Long> holdMax = new HashSet<>(holdingMax);
            if (processId != null) {
                for (long batch : List.of(min, max)) {
                    if (!(batch == min ? holdMin : holdMax).contains(processId)) {
                        throw BATCH_NOT_QUEUED.exception("batch " + batch + " is not queued for process " + processId);
                    }
                }
            } else if (min != max) {
                if (holdMin.isEmpty() || holdMax.isEmpty()) {
                    throw BATCH_NOT_QUEUED.exception("batch " + (holdMin.isEmpty() ? min : max) + " is not queued for any process");
                }
                holdMin.retainAll(holdMax);
                if (holdMin.isEmpty()) {
                    throw BATCHES_OF_DIFFERENT_SUB_PROCESSES.exception("batches " + min + " and " + max
                            + " are not queued for the same sub process");
                }
            }
        })).chain(() -> batches.files(min, max));
    }

    private Uni<Void> addFile(BatchRepository.FileRow f) {
        return batches.addFile(f).chain(added -> {
            if (!added) {
                throw FILE_EXISTS.exception("File Already exists exception: " + f.path() + " on server " + f.serverId());
            }
            return events.fileRegistered(f);
        });
    }

    private Uni<Long> batch(Long requested) {
        if (requested == null || requested == 0) {
            return batches.create(null, "file");
        }
        if (ChosenIds.choosable(requested)) {
            return batches.createWithId(requested, "file").replaceWith(requested);
        }
        return batches.find(requested).map(found -> {
            if (found.isEmpty()) {
                // Creating it would take an id of the generator's range, which a later generated batch would collide with.
                throw BATCH_ID_OUT_OF_RANGE.exception(ChosenIds.outOfRange("batch", requested) + " (and it does not exist)");
            }
            return requested;
        });
    }
}
