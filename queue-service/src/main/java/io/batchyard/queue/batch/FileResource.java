package io.batchyard.queue.batch;

import static io.batchyard.api.LifecycleError.BATCHES_OF_DIFFERENT_SUB_PROCESSES;
import static io.batchyard.api.LifecycleError.BATCH_NOT_QUEUED;
import static io.batchyard.queue.QueueError.FILE_EXISTS;

import io.batchyard.api.CommonErrors;
import io.batchyard.queue.consumption.ConsumptionQueue;
import io.batchyard.queue.lifecycle.QueueEvents;
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
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Jdbi;

/** Files of batches: RegisterFile and the min..max batch look-up (GetFiles). */
@Path("/files")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "files")
public class FileResource {

    /** {@code batchId} null or 0 creates a new 'Type1' batch (a step registering its output). */
    public record RegisterFile(@Positive Long subProcessId, @NotNull @PositiveOrZero Long serverId,
                               @NotBlank @Size(max = 1024) String path, @NotNull @PositiveOrZero Long fileSize,
                               @Size(max = 100) String fileHash, OffsetDateTime creationTs, @PositiveOrZero Long batchId) {
    }

    @Inject
    Jdbi jdbi;

    @Inject
    BatchStore batches;

    @Inject
    ConsumptionQueue queue;

    @Inject
    QueueEvents events;

    @POST
    @Operation(summary = "Register a file under a batch (a new Type1 batch when batchId is 0 or absent)")
    public Response register(@Valid @NotNull RegisterFile r) {
        BatchStore.FileRow row = jdbi.inTransaction(tx -> {
            long batchId;
            if (r.batchId() == null || r.batchId() == 0) {
                batchId = batches.create(tx, null, "Type1");
            } else {
                batchId = batches.find(tx, r.batchId()).map(BatchStore.Batch::batchId)
                        .orElseThrow(() -> CommonErrors.NOT_FOUND.exception("batch " + r.batchId() + " does not exist"));
            }
            BatchStore.FileRow f = new BatchStore.FileRow(batchId, r.serverId(), r.path(), r.fileSize(), r.fileHash(),
                    r.creationTs() == null ? OffsetDateTime.now() : r.creationTs());
            if (!batches.addFile(tx, f)) {
                throw FILE_EXISTS.exception("File Already exists exception: " + r.path() + " on server " + r.serverId());
            }
            events.fileRegistered(tx, f);
            return f;
        });
        return Response.status(201).entity(row).build();
    }

    @GET
    @Operation(summary = "Files of the batches min..max; with processId, both must be queued for that step")
    public List<BatchStore.FileRow> files(@QueryParam("minBatchId") @NotNull @PositiveOrZero Long min,
                                          @QueryParam("maxBatchId") @NotNull @PositiveOrZero Long max,
                                          @QueryParam("processId") @Positive Long processId) {
        if (min > max) {
            throw CommonErrors.INVALID_REQUEST.exception("minBatchId " + min + " is greater than maxBatchId " + max);
        }
        return jdbi.withHandle(h -> {
            Set<Long> holdMin = new HashSet<>(queue.processesHolding(h, min));
            Set<Long> holdMax = new HashSet<>(queue.processesHolding(h, max));
            if (processId != null) {
                for (long batch : List.of(min, max)) {
                    if (!(batch == min ? holdMin : holdMax).contains(processId)) {
                        throw BATCH_NOT_QUEUED.exception("batch " + batch + " is not queued for process " + processId);
                    }
                }
            } else if (!min.equals(max)) {
                if (holdMin.isEmpty() || holdMax.isEmpty()) {
                    throw BATCH_NOT_QUEUED.exception("batch " + (holdMin.isEmpty() ? min : max) + " is not queued for any process");
                }
                holdMin.retainAll(holdMax);
                if (holdMin.isEmpty()) {
                    throw BATCHES_OF_DIFFERENT_SUB_PROCESSES.exception("batches " + min + " and " + max
                            + " are not queued for the same sub process");
                }
            }
            return batches.files(h, min, max);
        });
    }
}
