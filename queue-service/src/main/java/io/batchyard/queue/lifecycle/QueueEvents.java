package io.batchyard.queue.lifecycle;

import io.batchyard.eventing.Outbox;
import io.batchyard.events.queue.BatchEnqueued;
import io.batchyard.events.queue.BatchesArchived;
import io.batchyard.events.queue.FileRegistered;
import io.batchyard.queue.batch.BatchStore;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import org.jdbi.v3.core.Handle;

/** queue-service's events, always appended to the outbox in the transaction that made the change. */
@ApplicationScoped
public class QueueEvents {

    static final String PRODUCER = "queue-service";

    @Inject
    Outbox outbox;

    public void enqueued(Handle tx, long queueId, long sourceBatchId, Long sourceProcessId, long consumer, String marking,
                         String correlationId) {
        outbox.append(tx, Topics.QUEUE_BATCHES, consumer, BatchEnqueued.newBuilder()
                .setHeader(Events.header(PRODUCER, null, correlationId))
                .setQueueId(queueId).setSourceBatchId(sourceBatchId).setSourceProcessId(sourceProcessId)
                .setConsumerProcessId(consumer).setBatchMarking(marking)
                .build());
    }

    public void archived(Handle tx, long parentId, long targetBatchId, List<Long> sourceBatchIds, long instanceExecId,
                         String correlationId) {
        outbox.append(tx, Topics.QUEUE_BATCHES, parentId, BatchesArchived.newBuilder()
                .setHeader(Events.header(PRODUCER, instanceExecId, correlationId))
                .setParentProcessId(parentId).setTargetBatchId(targetBatchId).setSourceBatchIds(sourceBatchIds)
                .build());
    }

    public void fileRegistered(Handle tx, BatchStore.FileRow f) {
        outbox.append(tx, Topics.QUEUE_FILES, f.batchId(), FileRegistered.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null))
                .setBatchId(f.batchId()).setServerId(f.serverId()).setPath(f.path()).setFileSize(f.fileSize())
                .setFileHash(f.fileHash()).setCreationTs(f.creationTs().toInstant())
                .build());
    }
}
