package io.batchyard.queue.compaction.catalog;

import io.batchyard.eventing.Outbox;
import io.batchyard.events.queue.ManifestPublished;
import io.batchyard.events.queue.PartitionSwitched;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Catalog events, appended to the outbox in the transaction that switches or publishes (key = table id). */
@ApplicationScoped
public class CompactionEvents {

    static final String PRODUCER = "queue-service";

    private final Outbox outbox;

    public CompactionEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    public Uni<Void> switched(Partition p, long mergedUpper) {
        return outbox.append(Topics.QUEUE_COMPACTION, p.tableId(), PartitionSwitched.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null))
                .setTableId(p.tableId()).setSchemaName(p.schemaName()).setTableName(p.tableName())
                .setPartitionId(p.partitionId()).setPartitionDate(p.partitionDate())
                .setLastLiveObjectId(p.lastLiveObjectId()).setMergedUpperBound(mergedUpper)
                .build());
    }

    public Uni<Void> published(Partition p, long version, String location, int objects, long bytes) {
        return outbox.append(Topics.QUEUE_COMPACTION, p.tableId(), ManifestPublished.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null))
                .setTableId(p.tableId()).setSchemaName(p.schemaName()).setTableName(p.tableName())
                .setPartitionId(p.partitionId()).setPartitionDate(p.partitionDate())
                .setVersion(version).setLocation(location).setObjectCount(objects).setTotalBytes(bytes)
                .build());
    }
}
