package io.batchyard.queue.batch;

import io.batchyard.eventing.Outbox;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.events.queue.BatchesArchived;
import io.batchyard.events.queue.FileRegistered;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * queue-service's events, always appended to the outbox in the transaction that made the change (the calling
 * service's {@code @WithTransaction} method).
 */
@ApplicationScoped
public class QueueEvents {

    static final String PRODUCER = "queue-service";

    private final Outbox outbox;

    public QueueEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    public Uni<Void> enqueued(long queueId, long sourceBatchId, Long sourceProcessId, long consumer, String marking,
                              String correlationId) {
        return outbox.append(Topics.QUEUE_BATCHES, consumer, BatchEnqueued.newBuilder()
                .setHeader(Events.header(PRODUCER, null, correlationId))
                .setQueueId(queueId).setSourceBatchId(sourceBatchId).setSourceProcessId(sourceProcessId)
                .setConsumerProcessId(consumer).setBatchMarking(marking)
                .build());
    }

    public Uni<Void> archived(long parentId, long targetBatchId, List<Long> sourceBatchIds, long instanceExecId,
                              String correlationId) {
        return outbox.append(Topics.QUEUE_BATCHES, parentId, BatchesArchived.newBuilder()
                .setHeader(Events.header(PRODUCER, instanceExecId, correlationId))
                .setParentProcessId(parentId).setTargetBatchId(targetBatchId).setSourceBatchIds(sourceBatchIds)
                .build());
    }

    public Uni<Void> fileRegistered(FileRow f) {
        return outbox.append(Topics.QUEUE_FILES, f.batchId(), FileRegistered.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null))
                .setBatchId(f.batchId()).setServerId(f.serverId()).setPath(f.path()).setFileSize(f.fileSize())
                .setFileHash(f.fileHash()).setCreationTs(f.creationTs().toInstant())
                .build());
    }
}
