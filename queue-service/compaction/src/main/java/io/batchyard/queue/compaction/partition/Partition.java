package io.batchyard.queue.compaction.partition;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.batchyard.queue.compaction.store.StoreLocation;
import java.time.LocalDate;

/**
 * One (table, date) partition with its manifest versions (the reference's prism_partitions), how many of its objects
 * came late (registered and stored, left out of merges until a rebuild), its table's store and the application its
 * table belongs to.
 */
public record Partition(long partitionId, long tableId, String schemaName, String tableName, LocalDate partitionDate,
                        long currentManifestVersion, long desiredManifestVersion, Long lastLiveObjectId,
                        boolean switched, PartitionState state, long lateObjects, @JsonIgnore StoreLocation store,
                        @JsonIgnore long applicationId) {

    @JsonIgnore
    public String tablePrefix() {
        return ObjectKeys.tablePrefix(schemaName, tableName);
    }
}
