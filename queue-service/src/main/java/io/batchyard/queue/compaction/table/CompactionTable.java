package io.batchyard.queue.compaction.table;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.batchyard.queue.compaction.store.StoreLocation;
import java.time.Duration;

/**
 * A logical table whose small objects are compacted (the reference's prism_tables), with its own settings and the
 * store its objects live in (fixed at registration).
 */
public record CompactionTable(long tableId, String schemaName, String tableName, int mergeIntervalSeconds,
                              int zoneOffsetMinutes, @JsonIgnore TableSettings settings, StoreLocation store) {

    public Duration mergeInterval() {
        return Duration.ofSeconds(mergeIntervalSeconds);
    }
}
