package io.batchyard.queue.compaction.table;

import java.time.Duration;

/** A logical table whose small objects are compacted (spec A.3 prism_tables). */
public record CompactionTable(long tableId, String schemaName, String tableName, int mergeIntervalSeconds,
                              int zoneOffsetMinutes) {

    public Duration mergeInterval() {
        return Duration.ofSeconds(mergeIntervalSeconds);
    }
}
