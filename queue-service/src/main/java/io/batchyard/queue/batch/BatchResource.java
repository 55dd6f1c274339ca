package io.batchyard.queue.batch;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.queue.QueueError.ALREADY_QUEUED;
import static io.batchyard.queue.QueueError.BATCH_ID_OUT_OF_RANGE;
import static io.batchyard.queue.QueueError.FILE_EXISTS;
import static io.batchyard.queue.QueueError.UNKNOWN_PROCESS;

import io.batchyard.api.ChosenIds;
import io.batchyard.queue.consumption.ConsumptionQueue;
import io.batchyard.queue.consumption.QueueRow;
import io.batchyard.queue.lifecycle.QueueEvents;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitions;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/** Batches: register one with its files and offer it to the consuming steps (BDRE BatchEnqueuer). */
@Path("/batches")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "batches")
public class BatchResource {

    public record NewFile(@NotBlank @Size(max = 1024) String path, @NotNull @PositiveOrZero Long fileSize,
                          @Size(max = 100) String fileHash, OffsetDateTime creationTs) {
    }

    /**
     * {@code batchId} null or 0 creates a new 'file' batch; an existing batch's id is used as is; an absent one is
     * created only with an id of the client range, {@link ChosenIds} (305 otherwise).
     */
    public record EnqueueBatch(@NotNull @Positive Long enqueuingProcessId, @PositiveOrZero Long batchId,
                               @NotNull @PositiveOrZero Long serverId, @Size(max = 1000) List<@Valid @NotNull NewFile> files,
                               @Size(max = 4000) String batchMarking) {
    }

    public record Enqueued(long batchId, List<QueueRow> rows) {
    }

    public record DirectEnqueue(@NotNull @Positive Long processId, @NotNull @Positive Long sourceProcessId,
                                @Size(max = 4000) String batchMarking) {
    }

    @Inject
    Jdbi jdbi;

    @Inject
    BatchStore batches;

    @Inject
    ConsumptionQueue queue;

    @Inject
    ProcessDefinitions definitions;

    @Inject
    QueueEvents events;

    @POST
    @Operation(summary = "Register a batch with its files and enqueue it for every step the enqueuing process feeds")
    public Response enqueueBatch(@Valid @NotNull EnqueueBatch request) {
        Enqueued result = jdbi.inTransaction(tx -> {
            ProcessDefinition upstream = definitions.find(tx, request.enqueuingProcessId())
                    .filter(p -> p.isParent() && !p.deleted())
                    .orElseThrow(() -> UNKNOWN_PROCESS.exception("enqueuing process " + request.enqueuingProcessId()
                            + " is not a live parent process known to queue-service"));
            long batchId = batch(tx, request.batchId());
            for (NewFile f : request.files() == null ? List.<NewFile>of() : request.files()) {
                BatchStore.FileRow row = new BatchStore.FileRow(batchId, request.serverId(), f.path(), f.fileSize(),
                        f.fileHash(), f.creationTs() == null ? OffsetDateTime.now() : f.creationTs());
                if (!batches.addFile(tx, row)) {
                    throw FILE_EXISTS.exception("File Already exists exception: " + f.path() + " on server " + request.serverId());
                }
                events.fileRegistered(tx, row);
            }
            List<Long> consumers = definitions.consumersOf(tx, upstream.processId()).stream()
                    .map(ProcessDefinition::processId).toList();
            for (long consumer : consumers) {
                Optional<Long> queueId = queue.enqueue(tx, batchId, upstream.processId(), request.batchMarking(), consumer);
                if (queueId.isPresent()) {
                    events.enqueued(tx, queueId.get(), batchId, upstream.processId(), consumer, request.batchMarking(), null);
                }
            }
            List<QueueRow> rows = queue.rowsOf(tx, consumers).stream().filter(r -> r.sourceBatchId() == batchId).toList();
            return new Enqueued(batchId, rows);
        });
        return Response.created(URI.create("/batches/" + result.batchId())).entity(result).build();
    }

    @POST
    @Path("{batchId}/enqueue")
    @Operation(summary = "Put an existing batch on one step's queue")
    public Response enqueue(@PathParam("batchId") long batchId, @Valid @NotNull DirectEnqueue request) {
        QueueRow row = jdbi.inTransaction(tx -> {
            batches.find(tx, batchId).orElseThrow(() -> NOT_FOUND.exception("batch " + batchId + " does not exist"));
            definitions.find(tx, request.sourceProcessId()).filter(ProcessDefinition::isParent)
                    .orElseThrow(() -> UNKNOWN_PROCESS.exception("source process " + request.sourceProcessId()
                            + " is not a parent process known to queue-service"));
            definitions.find(tx, request.processId()).filter(p -> !p.isParent() && !p.deleted())
                    .orElseThrow(() -> UNKNOWN_PROCESS.exception("process " + request.processId()
                            + " is not a live step known to queue-service"));
            long queueId = queue.enqueue(tx, batchId, request.sourceProcessId(), request.batchMarking(), request.processId())
                    .orElseThrow(() -> ALREADY_QUEUED.exception("batch " + batchId + " is already queued for process "
                            + request.processId()));
            events.enqueued(tx, queueId, batchId, request.sourceProcessId(), request.processId(), request.batchMarking(), null);
            return queue.rowsOf(tx, List.of(request.processId())).stream().filter(r -> r.queueId() == queueId)
                    .findFirst().orElseThrow();
        });
        return Response.created(URI.create("/queue?processId=" + row.processId())).entity(row).build();
    }

    @GET
    @Path("{batchId}")
    public BatchStore.Batch get(@PathParam("batchId") long batchId) {
        return jdbi.withHandle(h -> batches.find(h, batchId))
                .orElseThrow(() -> NOT_FOUND.exception("batch " + batchId + " does not exist"));
    }

    private long batch(Handle tx, Long requested) {
        if (requested == null || requested == 0) {
            return batches.create(tx, null, "file");
        }
        if (ChosenIds.choosable(requested)) {
            batches.createWithId(tx, requested, "file");
        } else if (batches.find(tx, requested).isEmpty()) {
            // Creating it would take an id of the generator's range, which a later generated batch would collide with.
            throw BATCH_ID_OUT_OF_RANGE.exception(ChosenIds.outOfRange("batch", requested) + " (and it does not exist)");
        }
        return requested;
    }
}
