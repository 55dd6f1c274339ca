package io.batchyard.queue.compaction.partition;

import io.batchyard.persistence.Columns;

import static io.batchyard.persistence.Columns.date;
import static io.batchyard.persistence.Columns.longOrNull;
import static io.batchyard.persistence.Columns.toLong;

import io.batchyard.queue.NativeRepository;
import io.batchyard.queue.Visibility;
import io.batchyard.queue.compaction.store.StoreLocation;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/** SQL over partitions; every method joins the caller's session. */
@ApplicationScoped
public class PartitionRepository extends NativeRepository {

    private static final String SELECT = """
            SELECT p.partition_id, p.table_id, t.schema_name, t.table_name, p.partition_date,
              p.current_manifest_version, p.desired_manifest_version, p.last_live_object_id, p.switched,
              t.store_kind, t.store_bucket, t.store_prefix, t.application_id,
              (SELECT count(*) FROM small_object s WHERE s.partition_id = p.partition_id AND s.hold = 'LATE')
            FROM compaction_partition p JOIN compaction_table t ON t.table_id = p.table_id""";

    public Uni<Long> findOrCreate(long tableId, LocalDate date) {
        return update("""
                        INSERT INTO compaction_partition (table_id, partition_date) VALUES (:t, :d)
                        ON CONFLICT (table_id, partition_date) DO NOTHING""",
                q -> q.setParameter("t", tableId).setParameter("d", date))
                .chain(() -> value("SELECT partition_id FROM compaction_partition WHERE table_id = :t AND partition_date = :d",
                        Long.class, q -> q.setParameter("t", tableId).setParameter("d", date)))
                .map(Optional::orElseThrow);
    }

    /**
     * Holds the partition's closed state still while an object registers: close() takes the row exclusively, so an
     * arrival is either wholly before a close (live, counted in last_live_object_id) or wholly after it (delayed).
     */
    public Uni<Void> lockShared(long partitionId) {
        return values("SELECT 1 FROM compaction_partition WHERE partition_id = :p FOR SHARE", Integer.class,
                q -> q.setParameter("p", partitionId)).replaceWithVoid();
    }

    public Uni<Optional<Partition>> find(long partitionId) {
        return first(SELECT + " WHERE p.partition_id = :p", q -> q.setParameter("p", partitionId),
                PartitionRepository::row);
    }

    /** Partitions of the tables of applications the caller may see, optionally of one table. */
    public Uni<List<Partition>> list(Long tableId, Visibility visibility, int limit, int offset) {
        Filter filter = Filter.of("p.table_id", tableId);
        return rows(SELECT + filter.where(visible("t.application_id"))
                        + " ORDER BY p.table_id, p.partition_date LIMIT :limit OFFSET :offset",
                q -> bind(bind(q, filter), visibility).setParameter("limit", limit).setParameter("offset", offset),
                PartitionRepository::row);
    }

    public Uni<Long> count(Long tableId, Visibility visibility) {
        Filter filter = Filter.of("p.table_id", tableId);
        return value("SELECT count(*) FROM compaction_partition p JOIN compaction_table t ON t.table_id = p.table_id"
                        + filter.where(visible("t.application_id")), Long.class,
                q -> bind(bind(q, filter), visibility)).map(Optional::orElseThrow);
    }

    /**
     * Closes one partition: its last live object id becomes the largest id among its non-delayed objects. Stays open
     * (empty result) when it has none, as in the reference; closing twice keeps the first value.
     */
    public Uni<Optional<Long>> close(long partitionId) {
        // Lock first, compute in a later statement: that statement's snapshot sees every registration that held the
        // row before us, so no live object is missed.
        return values("SELECT 1 FROM compaction_partition WHERE partition_id = :p FOR UPDATE", Integer.class,
                q -> q.setParameter("p", partitionId))
                .chain(() -> value("""
                                UPDATE compaction_partition p SET closed_at = now(), last_live_object_id =
                                  (SELECT max(object_id) FROM small_object s WHERE s.partition_id = p.partition_id AND NOT s.delayed)
                                WHERE p.partition_id = :p AND p.last_live_object_id IS NULL
                                  AND EXISTS (SELECT 1 FROM small_object s WHERE s.partition_id = p.partition_id AND NOT s.delayed)
                                RETURNING last_live_object_id""", Long.class, q -> q.setParameter("p", partitionId)));
    }

    /**
     * Open partitions whose date is over in their table's zone at {@code now} (the service clock's, not the
     * database's): date <= local date of now - 1. The zone is the table's time zone when it has one (summer time
     * included), else its fixed offset.
     */
    public Uni<List<Long>> dueForClose(OffsetDateTime now) {
        return values("""
                        SELECT p.partition_id FROM compaction_partition p JOIN compaction_table t ON t.table_id = p.table_id
                        WHERE p.last_live_object_id IS NULL
                          AND p.partition_date <= CAST(CASE WHEN t.time_zone IS NOT NULL
                                THEN CAST(:now AS timestamptz) AT TIME ZONE t.time_zone
                                ELSE (CAST(:now AS timestamptz) AT TIME ZONE 'UTC') + make_interval(mins => t.zone_offset_minutes)
                              END AS DATE) - 1
                        ORDER BY p.partition_id""", Long.class, q -> q.setParameter("now", now));
    }

    /** Switches every closed partition whose merged ranges reach its last live object; returns their ids. */
    public Uni<List<Long>> switchReady() {
        return values("""
                        UPDATE compaction_partition p SET switched = true, switched_at = now()
                        WHERE NOT p.switched AND p.last_live_object_id IS NOT NULL
                          AND (SELECT max(upper_bound) FROM merge_range r WHERE r.partition_id = p.partition_id)
                              >= p.last_live_object_id
                        RETURNING partition_id""", Long.class, q -> q);
    }

    /** desired := max(desired, upper): versions only grow. */
    public Uni<Integer> raiseDesired(long partitionId, long upper) {
        return update("""
                        UPDATE compaction_partition SET desired_manifest_version = GREATEST(desired_manifest_version, :u)
                        WHERE partition_id = :p""",
                q -> q.setParameter("p", partitionId).setParameter("u", upper));
    }

    /** Partitions the catalog must (re)publish: never published, or switched with a newer merge than published. */
    public Uni<List<Long>> toPublish() {
        return values("""
                        SELECT partition_id FROM compaction_partition
                        WHERE (NOT switched AND current_manifest_version < 0)
                           OR (switched AND current_manifest_version < desired_manifest_version
                               AND (rebuild_target IS NULL OR desired_manifest_version >= rebuild_target))
                        ORDER BY partition_id""", Long.class, q -> q);
    }

    /** Moves the published version from {@code expected} to {@code version}; false if another sync moved it first. */
    public Uni<Boolean> publish(long partitionId, long expected, long version) {
        return update("""
                        UPDATE compaction_partition SET current_manifest_version = :v
                        WHERE partition_id = :p AND current_manifest_version = :expected AND :v > current_manifest_version
                          -- a rebuild's chain is published whole or not at all: readers keep the old manifest until then
                          AND (rebuild_target IS NULL OR :v >= rebuild_target)""",
                q -> q.setParameter("p", partitionId).setParameter("expected", expected).setParameter("v", version))
                .map(moved -> moved == 1);
    }

    /** Records a rebuild whose chain is complete once it reaches {@code target}. */
    public Uni<Integer> markRebuild(long partitionId, long target) {
        return update("""
                        UPDATE compaction_partition SET rebuild_target = :t, rebuild_requested_at = now()
                        WHERE partition_id = :p""", q -> q.setParameter("p", partitionId).setParameter("t", target));
    }

    /** Partitions at least this old, for garbage collection. */
    public Uni<List<Long>> olderThan(LocalDate date) {
        return values("SELECT partition_id FROM compaction_partition WHERE partition_date <= :d ORDER BY partition_id",
                Long.class, q -> q.setParameter("d", date));
    }

    private static Partition row(Object[] r) {
        Long lastLive = longOrNull(r[7]);
        long current = toLong(r[5]);
        boolean switched = (Boolean) r[8];
        return new Partition(toLong(r[0]), toLong(r[1]), (String) r[2], (String) r[3], date(r[4]), current,
                toLong(r[6]), lastLive, switched, PartitionState.of(switched, lastLive, current), toLong(r[13]),
                StoreLocation.of((String) r[9], (String) r[10], (String) r[11]), toLong(r[12]));
    }
}
