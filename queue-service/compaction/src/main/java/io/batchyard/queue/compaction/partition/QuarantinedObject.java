package io.batchyard.queue.compaction.partition;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.batchyard.queue.compaction.store.StoreLocation;
import java.time.LocalDate;
import java.time.OffsetDateTime;

/**
 * A small object a merge could not use: where it is (table, partition, the producer's key), why ({@code lineNumber}
 * 1-based, null when the object as a whole could not be read), and what an operator decided.
 */
public record QuarantinedObject(long objectId, long partitionId, String schemaName, String tableName,
                                LocalDate partitionDate, String objectKey, QuarantineState state,
                                Integer lineNumber, String error, OffsetDateTime quarantinedAt,
                                OffsetDateTime decidedAt, @JsonIgnore StoreLocation store) {
}
