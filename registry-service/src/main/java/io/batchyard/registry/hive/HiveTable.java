package io.batchyard.registry.hive;

import java.time.OffsetDateTime;

/** A registered Hive table or view DDL (BDRE HIVE_TABLES), owned by an application like a process. */
public record HiveTable(long id, long applicationId, String comments, String locationType, String dbName,
                        String batchIdPartitionCol, String tableName, String type, String ddl, OffsetDateTime createdAt,
                        OffsetDateTime updatedAt) {
}
