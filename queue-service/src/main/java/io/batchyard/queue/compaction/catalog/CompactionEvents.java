package io.batchyard.queue.compaction.catalog;

import io.batchyard.eventing.Outbox;
import io.batchyard.events.queue.ManifestPublished;
import io.batchyard.events.queue.PartitionSwitched;
import io.batchyard.queue.compaction.partition.Partition;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import org.jdbi.v3.core.Handle;

/** Catalog events, appended to the outbox in the transaction that switches or publishes (key = table id). */
public final class CompactionEvents {

    static final String PRODUCER = "queue-service";

    private final Outbox outbox;

    public CompactionEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    public void switched(Handle tx, Partition p, long mergedUpper) {
        outbox.append(tx, Topics.QUEUE_COMPACTION, p.tableId(), PartitionSwitched.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null))
                .setTableId(p.tableId()).setSchemaName(p.schemaName()).setTableName(p.tableName())
                .setPartitionId(p.partitionId()).setPartitionDate(p.partitionDate())
                .setLastLiveObjectId(p.lastLiveObjectId()).setMergedUpperBound(mergedUpper)
                .build());
    }

    public void published(Handle tx, Partition p, long version, String location, int objects, long bytes) {
        outbox.append(tx, Topics.QUEUE_COMPACTION, p.tableId(), ManifestPublished.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null))
                .setTableId(p.tableId()).setSchemaName(p.schemaName()).setTableName(p.tableName())
                .setPartitionId(p.partitionId()).setPartitionDate(p.partitionDate())
                .setVersion(version).setLocation(location).setObjectCount(objects).setTotalBytes(bytes)
                .build());
    }
}
