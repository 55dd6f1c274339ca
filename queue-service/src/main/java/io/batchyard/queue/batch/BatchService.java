package io.batchyard.queue.batch;

import static io.batchyard.api.CommonErrors.CONFLICT;
import static io.batchyard.api.CommonErrors.INVALID_REQUEST;
import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.api.LifecycleError.BATCHES_OF_DIFFERENT_SUB_PROCESSES;
import static io.batchyard.api.LifecycleError.BATCH_NOT_QUEUED;
import static io.batchyard.queue.QueueError.ALREADY_QUEUED;
import static io.batchyard.queue.QueueError.BATCH_ID_OUT_OF_RANGE;
import static io.batchyard.queue.QueueError.FILE_EXISTS;
import static io.batchyard.queue.QueueError.UNKNOWN_PROCESS;

import io.batchyard.api.ApiException;
import io.batchyard.api.ChosenIds;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.persistence.InOrder;
import io.batchyard.queue.access.AccessChecks;
import io.batchyard.queue.consumption.QueueRow;
import io.batchyard.queue.consumption.QueueService;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Batches and files (BDRE BatchEnqueuer, RegisterFile, GetFiles): each use case is one transaction, with the
 * FileRegistered and BatchEnqueued events it causes appended to the outbox in it. Each checks the caller's permission
 * on the applications involved in the same transaction: the process it acts for (a step's application is its
 * parent's) and the batch it names, which belongs to the applications of the processes it is related to
 * ({@link BatchRepository#applications}). The methods without a caller are steps of other features' use cases (a
 * claim, a lifecycle event) and join the caller's transaction.
 */
@ApplicationScoped
public class BatchService {

    private final BatchRepository batches;
    private final QueueService queue;
    private final ProcessDefinitionRepository definitions;
    private final QueueEvents events;
    private final AccessChecks access;

    public BatchService(BatchRepository batches, QueueService queue, ProcessDefinitionRepository definitions,
                        QueueEvents events, AccessChecks access) {
        this.batches = batches;
        this.queue = queue;
        this.definitions = definitions;
        this.events = events;
        this.access = access;
    }

    /**
     * Registers a batch with its files and enqueues it for every live step the enqueuing process feeds: execute
     * permission on the enqueuing process's application. A batch named that exists already must be one the caller may
     * see, and adding files to it needs execute permission on every application it belongs to.
     */
    @WithTransaction
    public Uni<BatchApi.Enqueued> enqueueBatch(Caller caller, BatchApi.EnqueueBatch request) {
        Supplier<ApiException> unknown = () -> UNKNOWN_PROCESS.exception("enqueuing process "
                + request.enqueuingProcessId() + " is not a live parent process known to queue-service");
        List<BatchApi.NewFile> files = request.files() == null ? List.of() : request.files();
        return definitions.find(request.enqueuingProcessId())
                .map(found -> found.filter(p -> p.isParent() && !p.deleted()).orElseThrow(unknown))
                .call(upstream -> access.require(caller, upstream, Permission.EXECUTE, unknown))
                .chain(upstream -> batch(caller, request.batchId(), upstream.processId(), !files.isEmpty())
                        .chain(batchId -> InOrder.each(files,
                                f -> addFile(new FileRow(batchId, request.serverId(), f.path(), f.fileSize(),
                                        f.fileHash(), f.creationTs() == null ? OffsetDateTime.now() : f.creationTs())))
                        .chain(() -> definitions.consumersOf(upstream.processId()))
                        .map(consumers -> consumers.stream().map(ProcessDefinition::processId).toList())
                        .chain(consumers -> InOrder.each(consumers, consumer -> queue.enqueue(batchId,
                                        upstream.processId(), request.batchMarking(), consumer)
                                        .chain(queueId -> queueId.isEmpty() ? Uni.createFrom().voidItem()
                                                : events.enqueued(queueId.get(), batchId, upstream.processId(), consumer,
                                                request.batchMarking(), null)))
                                .chain(() -> queue.rowsOf(consumers)))
                        .map(rows -> new BatchApi.Enqueued(batchId,
                                rows.stream().filter(r -> r.sourceBatchId() == batchId).toList()))));
    }

    /**
     * Puts an existing batch on one step's queue; 304 when it is already there. The caller must see the batch and the
     * source process, and needs execute permission on the step's application.
     */
    @WithTransaction
    public Uni<QueueRow> enqueue(Caller caller, long batchId, BatchApi.DirectEnqueue request) {
        Supplier<ApiException> noBatch = () -> NOT_FOUND.exception("batch " + batchId + " does not exist");
        Supplier<ApiException> unknownSource = () -> UNKNOWN_PROCESS.exception("source process "
                + request.sourceProcessId() + " is not a parent process known to queue-service");
        Supplier<ApiException> unknownStep = () -> UNKNOWN_PROCESS.exception("process " + request.processId()
                + " is not a live step known to queue-service");
        return batches.find(batchId)
                .map(found -> found.orElseThrow(noBatch))
                .chain(batch -> seen(caller, batchId, Permission.READ, noBatch))
                .chain(() -> definitions.find(request.sourceProcessId()))
                .map(found -> found.filter(ProcessDefinition::isParent).orElseThrow(unknownSource))
                .call(source -> access.require(caller, source, Permission.READ, unknownSource))
                .chain(() -> definitions.find(request.processId()))
                .map(found -> found.filter(p -> !p.isParent() && !p.deleted()).orElseThrow(unknownStep))
                .call(step -> access.require(caller, step, Permission.EXECUTE, unknownStep))
                .chain(() -> queue.enqueue(batchId, request.sourceProcessId(), request.batchMarking(), request.processId()))
                .map(queueId -> queueId.orElseThrow(() -> ALREADY_QUEUED.exception("batch " + batchId
                        + " is already queued for process " + request.processId())))
                .call(queueId -> events.enqueued(queueId, batchId, request.sourceProcessId(), request.processId(),
                        request.batchMarking(), null))
                .chain(queueId -> queue.rowsOf(List.of(request.processId())).map(rows -> rows.stream()
                        .filter(r -> r.queueId() == queueId).findFirst().orElseThrow()));
    }

    /** A batch the caller may see (through any of its applications); else 404, as for one that does not exist. */
    @WithSession
    public Uni<Batch> get(Caller caller, long batchId) {
        Supplier<ApiException> noBatch = () -> NOT_FOUND.exception("batch " + batchId + " does not exist");
        return batches.find(batchId)
                .map(found -> found.orElseThrow(noBatch))
                .call(batch -> seen(caller, batchId, Permission.READ, noBatch));
    }

    /**
     * RegisterFile: a file under an existing batch, or under a new Type1 batch when none is named. The registering
     * step ({@code subProcessId}) needs execute permission on its application, and a new batch belongs to it (only an
     * administrator may make one for no process); an existing batch must be one the caller may see, and needs execute
     * permission on every application it belongs to.
     */
    @WithTransaction
    public Uni<FileRow> registerFile(Caller caller, BatchApi.RegisterFile r) {
        Supplier<ApiException> unknown = () -> UNKNOWN_PROCESS.exception("process " + r.subProcessId()
                + " is not a live process known to queue-service");
        Supplier<ApiException> noBatch = () -> NOT_FOUND.exception("batch " + r.batchId() + " does not exist");
        Uni<Void> registering = r.subProcessId() == null ? Uni.createFrom().voidItem()
                : definitions.find(r.subProcessId())
                .map(found -> found.filter(p -> !p.deleted()).orElseThrow(unknown))
                .chain(process -> access.require(caller, process, Permission.EXECUTE, unknown));
        return registering.chain(() -> {
            if (r.batchId() != null && r.batchId() != 0) {
                return batches.find(r.batchId()).map(found -> found.orElseThrow(noBatch))
                        .chain(batch -> seen(caller, batch.batchId(), Permission.EXECUTE, noBatch));
            }
            if (r.subProcessId() == null && !caller.admin()) {
                throw INVALID_REQUEST.exception("subProcessId is required for a new batch: the batch belongs to the "
                        + "application of the process that registers it");
            }
            return batches.create(null, "Type1", r.subProcessId());
        }).map(batchId -> new FileRow(batchId, r.serverId(), r.path(), r.fileSize(),
                        r.fileHash(), r.creationTs() == null ? OffsetDateTime.now() : r.creationTs()))
                .call(this::addFile);
    }

    /**
     * GetFiles: files of the batches min..max; with a step, both must be queued for it, else for one same step. Only
     * what the caller may see counts: the files of batches it may see, and the steps it may read (a step it may not
     * read, or one that does not exist, holds nothing it can list: an empty list, as for a step nothing is queued
     * for and no refusal that would tell the two apart).
     */
    @WithSession
    public Uni<List<FileRow>> files(Caller caller, long min, long max, Long processId) {
        return access.visibility(caller).chain(visible -> (processId == null ? Uni.createFrom().item(true)
                : access.readsProcess(caller, processId)).chain(readable -> !readable
                ? Uni.createFrom().item(List.<FileRow>of())
                : queue.processesHolding(min, visible).chain(holdingMin -> queue.processesHolding(max, visible)
                        .invoke(holdingMax -> checkQueued(min, max, processId, holdingMin, holdingMax)))
                .chain(() -> batches.files(min, max, visible))));
    }

    private static void checkQueued(long min, long max, Long processId, List<Long> holdingMin, List<Long> holdingMax) {
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
                throw BATCH_NOT_QUEUED.exception("batch " + (holdMin.isEmpty() ? min : max)
                        + " is not queued for any process");
            }
            holdMin.retainAll(holdMax);
            if (holdMin.isEmpty()) {
                throw BATCHES_OF_DIFFERENT_SUB_PROCESSES.exception("batches " + min + " and " + max
                        + " are not queued for the same sub process");
            }
        }
    }

    private Uni<Void> addFile(FileRow f) {
        return batches.addFile(f).chain(added -> {
            if (!added) {
                throw FILE_EXISTS.exception("File Already exists exception: " + f.path() + " on server " + f.serverId());
            }
            return events.fileRegistered(f);
        });
    }

    /**
     * The batch a registration names: a new one for {@code processId}, or an existing one the caller may see (and, to
     * add files to it, change).
     */
    private Uni<Long> batch(Caller caller, Long requested, long processId, boolean addsFiles) {
        if (requested == null || requested == 0) {
            return batches.create(null, "file", processId);
        }
        Permission need = addsFiles ? Permission.EXECUTE : Permission.READ;
        if (ChosenIds.choosable(requested)) {
            // a chosen id taken by a batch the caller may not see cannot be given to it, nor be said to be whose
            return batches.createWithId(requested, "file", processId).chain(created -> created == 1
                    ? Uni.createFrom().item(requested)
                    : seen(caller, requested, need, () -> CONFLICT.exception("batch id " + requested
                            + " is taken: choose another id of the client range")));
        }
        // Creating it would take an id of the generator's range, which a later generated batch would collide with.
        Supplier<ApiException> absent = () -> BATCH_ID_OUT_OF_RANGE.exception(
                ChosenIds.outOfRange("batch", requested) + " (and it does not exist)");
        return batches.find(requested).chain(found -> found.isEmpty() ? Uni.createFrom().failure(absent.get())
                : seen(caller, requested, need, absent));
    }

    /** Passes {@code batchId} on when the caller may see the batch and holds {@code need} on all its applications. */
    private Uni<Long> seen(Caller caller, long batchId, Permission need, Supplier<ApiException> hidden) {
        return batches.applications(batchId)
                .chain(applications -> access.permitsAll(caller, applications, need, "batch " + batchId))
                .map(seen -> {
                    if (!seen) {
                        throw hidden.get();
                    }
                    return batchId;
                });
    }

    /** A batch, whoever may see it. */
    public Uni<Optional<Batch>> find(long batchId) {
        return batches.find(batchId);
    }

    /** A new target batch for a run. */
    public Uni<Long> createTarget(long instanceExecId) {
        return batches.create(instanceExecId, "Type1");
    }

    /** Hands a failed run's target batch to the run that retries it. */
    public Uni<Integer> bindToRun(long batchId, long instanceExecId) {
        return batches.bindToRun(batchId, instanceExecId);
    }

    /** Marks a run's target batch failed, while it is still bound to that run. */
    public Uni<Integer> markFailed(long batchId, long failedRun) {
        return batches.markFailed(batchId, failedRun);
    }

    /** The files and producers of these batches (see {@link BatchRepository#sources}). */
    public Uni<BatchRepository.Sources> sources(Collection<Long> batchIds) {
        return batches.sources(batchIds);
    }
}
