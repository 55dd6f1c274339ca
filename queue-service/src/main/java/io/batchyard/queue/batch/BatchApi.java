package io.batchyard.queue.batch;

import io.batchyard.api.ChosenIds;
import io.batchyard.queue.consumption.QueueRow;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.time.OffsetDateTime;
import java.util.List;

/** Bodies of the batch and file endpoints. */
public final class BatchApi {

    private BatchApi() {
    }

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

    /** {@code batchId} null or 0 creates a new 'Type1' batch (a step registering its output). */
    public record RegisterFile(@Positive Long subProcessId, @NotNull @PositiveOrZero Long serverId,
                               @NotBlank @Size(max = 1024) String path, @NotNull @PositiveOrZero Long fileSize,
                               @Size(max = 100) String fileHash, OffsetDateTime creationTs, @PositiveOrZero Long batchId) {
    }
}
