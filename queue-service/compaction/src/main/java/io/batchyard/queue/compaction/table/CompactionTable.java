package io.batchyard.queue.compaction.table;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.batchyard.queue.compaction.store.ObjectKeys;
import io.batchyard.queue.compaction.store.StoreLocation;
import java.time.Duration;

/**
 * A logical table whose small objects are compacted (the reference's prism_tables), with its own settings, the store
 * its objects live in (fixed at registration) and the application it belongs to, whose permissions decide who may see,
 * change and operate it.
 */
public record CompactionTable(long tableId, String schemaName, String tableName, int mergeIntervalSeconds,
                              int zoneOffsetMinutes, @JsonIgnore TableSettings settings, StoreLocation store,
                              long applicationId) {

    public Duration mergeInterval() {
        return Duration.ofSeconds(mergeIntervalSeconds);
    }

    /** Where producers put the table's small objects in its store: every key registered for it starts so. */
    @JsonProperty("keyPrefix")
    public String keyPrefix() {
        return ObjectKeys.tableFolder(schemaName, tableName);
    }
}
