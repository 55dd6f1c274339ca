package io.batchyard.queue.compaction.partition;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/** SQL over partitions; every method runs on the caller's handle. */
public final class PartitionStore {

    private static final String SELECT = """
            SELECT p.*, t.schema_name, t.table_name FROM compaction_partition p
            JOIN compaction_table t ON t.table_id = p.table_id""";

    public long findOrCreate(Handle tx, long tableId, LocalDate date) {
        tx.createUpdate("""
                        INSERT INTO compaction_partition (table_id, partition_date) VALUES (:t, :d)
                        ON CONFLICT (table_id, partition_date) DO NOTHING""")
                .bind("t", tableId).bind("d", date).execute();
        return tx.createQuery("SELECT partition_id FROM compaction_partition WHERE table_id = :t AND partition_date = :d")
                .bind("t", tableId).bind("d", date).mapTo(Long.class).one();
    }

    /**
     * Holds the partition's closed state still while an object registers: close() takes the row exclusively, so an
     * arrival is either wholly before a close (live, counted in last_live_object_id) or wholly after it (delayed).
     */
    public void lockShared(Handle tx, long partitionId) {
        tx.createQuery("SELECT 1 FROM compaction_partition WHERE partition_id = :p FOR SHARE")
                .bind("p", partitionId).mapTo(Integer.class).one();
    }

    public Optional<Partition> find(Handle h, long partitionId) {
        return h.createQuery(SELECT + " WHERE p.partition_id = :p").bind("p", partitionId).map(PartitionStore::row).findOne();
    }

    public List<Partition> list(Handle h, Long tableId, int limit, int offset) {
        return h.createQuery(SELECT + """
                         WHERE (CAST(:t AS BIGINT) IS NULL OR p.table_id = :t)
                        ORDER BY p.table_id, p.partition_date LIMIT :limit OFFSET :offset""")
                .bind("t", tableId).bind("limit", limit).bind("offset", offset).map(PartitionStore::row).list();
    }

    public long count(Handle h, Long tableId) {
        return h.createQuery("SELECT count(*) FROM compaction_partition WHERE CAST(:t AS BIGINT) IS NULL OR table_id = :t")
                .bind("t", tableId).mapTo(Long.class).one();
    }

    /**
     * Closes one partition: its last live object id becomes the largest id among its non-delayed objects. Stays open
     * (empty result) when it has none, as in the reference; closing twice keeps the first value.
     */
    public Optional<Long> close(Handle tx, long partitionId) {
        // Lock first, compute in a later statement: that statement's snapshot sees every registration that held the
        // row before us, so no live object is missed.
        tx.createQuery("SELECT 1 FROM compaction_partition WHERE partition_id = :p FOR UPDATE")
                .bind("p", partitionId).mapTo(Integer.class).one();
        return tx.createQuery("""
                        UPDATE compaction_partition p SET closed_at = now(), last_live_object_id =
                          (SELECT max(object_id) FROM small_object s WHERE s.partition_id = p.partition_id AND NOT s.delayed)
                        WHERE p.partition_id = :p AND p.last_live_object_id IS NULL
                          AND EXISTS (SELECT 1 FROM small_object s WHERE s.partition_id = p.partition_id AND NOT s.delayed)
                        RETURNING last_live_object_id""")
                .bind("p", partitionId).mapTo(Long.class).findOne();
    }

    /** Open partitions whose date is over in their table's zone: date <= (now + offset)::date - 1 (spec A.8). */
    public List<Long> dueForClose(Handle h) {
        return h.createQuery("""
                        SELECT p.partition_id FROM compaction_partition p JOIN compaction_table t ON t.table_id = p.table_id
                        WHERE p.last_live_object_id IS NULL
                          AND p.partition_date <= CAST((now() AT TIME ZONE 'UTC') + make_interval(mins => t.zone_offset_minutes) AS DATE) - 1
                        ORDER BY p.partition_id""")
                .mapTo(Long.class).list();
    }

    /** Switches every closed partition whose merged ranges reach its last live object; returns them. */
    public List<Partition> switchReady(Handle tx) {
        List<Long> ids = tx.createQuery("""
                        UPDATE compaction_partition p SET switched = true, switched_at = now()
                        WHERE NOT p.switched AND p.last_live_object_id IS NOT NULL
                          AND (SELECT max(upper_bound) FROM merge_range r WHERE r.partition_id = p.partition_id)
                              >= p.last_live_object_id
                        RETURNING partition_id""")
                .mapTo(Long.class).list();
        return ids.stream().map(id -> find(tx, id).orElseThrow()).toList();
    }

    /** desired := max(desired, upper): versions only grow. */
    public void raiseDesired(Handle tx, long partitionId, long upper) {
        tx.createUpdate("""
                        UPDATE compaction_partition SET desired_manifest_version = GREATEST(desired_manifest_version, :u)
                        WHERE partition_id = :p""")
                .bind("p", partitionId).bind("u", upper).execute();
    }

    /** Partitions the catalog must (re)publish: never published, or switched with a newer merge than published. */
    public List<Long> toPublish(Handle h) {
        return h.createQuery("""
                        SELECT partition_id FROM compaction_partition
                        WHERE (NOT switched AND current_manifest_version < 0)
                           OR (switched AND current_manifest_version < desired_manifest_version)
                        ORDER BY partition_id""")
                .mapTo(Long.class).list();
    }

    /** Moves the published version from {@code expected} to {@code version}; false if another sync moved it first. */
    public boolean publish(Handle tx, long partitionId, long expected, long version) {
        return tx.createUpdate("""
                        UPDATE compaction_partition SET current_manifest_version = :v
                        WHERE partition_id = :p AND current_manifest_version = :expected AND :v > current_manifest_version""")
                .bind("p", partitionId).bind("expected", expected).bind("v", version).execute() == 1;
    }

    /** Partitions at least this old, for garbage collection. */
    public List<Long> olderThan(Handle h, LocalDate date) {
        return h.createQuery("SELECT partition_id FROM compaction_partition WHERE partition_date <= :d ORDER BY partition_id")
                .bind("d", date).mapTo(Long.class).list();
    }

    private static Partition row(ResultSet rs, StatementContext ctx) throws SQLException {
        Long lastLive = rs.getObject("last_live_object_id") == null ? null : rs.getLong("last_live_object_id");
        long current = rs.getLong("current_manifest_version");
        boolean switched = rs.getBoolean("switched");
        return new Partition(rs.getLong("partition_id"), rs.getLong("table_id"), rs.getString("schema_name"),
                rs.getString("table_name"), rs.getObject("partition_date", LocalDate.class), current,
                rs.getLong("desired_manifest_version"), lastLive, switched, PartitionState.of(switched, lastLive, current));
    }
}
