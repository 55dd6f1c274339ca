package io.batchyard.queue.compaction.partition;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/** SQL over small objects; every method runs on the caller's handle. */
public final class SmallObjectStore {

    /**
     * Inserts the object, delayed if and only if its partition is closed at this moment (decided inside the insert).
     * Empty when the same source key is already registered for the partition.
     */
    public Optional<SmallObject> insert(Handle tx, long partitionId, String sourceKey, long contentLength) {
        return tx.createQuery("""
                        INSERT INTO small_object (partition_id, source_key, delayed, content_length)
                        SELECT p.partition_id, :key, p.last_live_object_id IS NOT NULL, :length
                        FROM compaction_partition p WHERE p.partition_id = :p
                        ON CONFLICT (partition_id, source_key) DO NOTHING
                        RETURNING object_id, partition_id, source_key, delayed, content_length""")
                .bind("p", partitionId).bind("key", sourceKey).bind("length", contentLength)
                .map(SmallObjectStore::row).findOne();
    }

    public Optional<SmallObject> find(Handle h, long partitionId, String sourceKey) {
        return h.createQuery("SELECT * FROM small_object WHERE partition_id = :p AND source_key = :key")
                .bind("p", partitionId).bind("key", sourceKey).map(SmallObjectStore::row).findOne();
    }

    /** Objects not merged yet (id above {@code above}), ids ascending, live and delayed alike. */
    public List<SmallObject> unmerged(Handle h, long partitionId, long above, int limit) {
        return h.createQuery("""
                        SELECT * FROM small_object WHERE partition_id = :p AND object_id > :above
                        ORDER BY object_id LIMIT :limit""")
                .bind("p", partitionId).bind("above", above).bind("limit", limit).map(SmallObjectStore::row).list();
    }

    /** Objects with ids in (lower, upper], ascending: the content of one merged range. */
    public List<SmallObject> between(Handle h, long partitionId, long lower, long upper) {
        return h.createQuery("""
                        SELECT * FROM small_object WHERE partition_id = :p AND object_id > :lower AND object_id <= :upper
                        ORDER BY object_id""")
                .bind("p", partitionId).bind("lower", lower).bind("upper", upper).map(SmallObjectStore::row).list();
    }

    private static SmallObject row(ResultSet rs, StatementContext ctx) throws SQLException {
        return new SmallObject(rs.getLong("object_id"), rs.getLong("partition_id"), rs.getString("source_key"),
                rs.getBoolean("delayed"), rs.getLong("content_length"));
    }
}
