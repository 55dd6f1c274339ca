package io.batchyard.queue.compaction.table;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.time.Duration;

/** A logical table whose small objects are compacted (spec A.3 prism_tables), with its own settings. */
public record CompactionTable(long tableId, String schemaName, String tableName, int mergeIntervalSeconds,
                              int zoneOffsetMinutes, @JsonIgnore TableSettings settings) {

    public Duration mergeInterval() {
        return Duration.ofSeconds(mergeIntervalSeconds);
    }
}
