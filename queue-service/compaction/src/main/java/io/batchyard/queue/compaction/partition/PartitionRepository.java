package io.batchyard.queue.compaction.partition;

import static io.batchyard.queue.access.Visibility.visible;

import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.batchyard.queue.access.Visibility;
import io.batchyard.queue.compaction.store.StoreLocation;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/** SQL over partitions; every method joins the caller's session. */
@ApplicationScoped
public class PartitionRepository extends SqlRepository {

    private static final String SELECT = """
            SELECT p.partition_id, p.table_id, t.schema_name, t.table_name, p.partition_date,
              p.current_manifest_version, p.desired_manifest_version, p.last_live_object_id, p.switched,
              t.store_kind, t.store_bucket, t.store_prefix, t.application_id,
              (SELECT count(*) FROM small_object s WHERE s.partition_id = p.partition_id AND s.hold = 'LATE')
                AS late_objects
            FROM compaction_partition p JOIN compaction_table t ON t.table_id = p.table_id""";

    public Uni<Long> findOrCreate(long tableId, LocalDate date) {
        return update("""
                        INSERT INTO compaction_partition (table_id, partition_date) VALUES (:t, :d)
                        ON CONFLICT (table_id, partition_date) DO NOTHING""",
                Params.of("t", tableId).and("d", date))
                .chain(() -> value("SELECT partition_id FROM compaction_partition WHERE table_id = :t AND partition_date = :d",
                        Long.class, Params.of("t", tableId).and("d", date)))
                .map(Optional::orElseThrow);
    }

    /**
     * Holds the partition's closed state still while an object registers: close() takes the row exclusively, so an
     * arrival is either wholly before a close (live, counted in last_live_object_id) or wholly after it (delayed).
     */
    public Uni<Void> lockShared(long partitionId) {
        return values("SELECT 1 FROM compaction_partition WHERE partition_id = :p FOR SHARE", Integer.class,
                Params.of("p", partitionId)).replaceWithVoid();
    }

    public Uni<Optional<Partition>> find(long partitionId) {
        return first(SELECT + " WHERE p.partition_id = :p", Params.of("p", partitionId), PartitionRepository::map);
    }

    /** Partitions of the tables of applications the caller may see, optionally of one table. */
    public Uni<List<Partition>> list(Long tableId, Visibility visibility, int limit, int offset) {
        Where where = filter(tableId, visibility);
        return list(SELECT + where.sql() + " ORDER BY p.table_id, p.partition_date" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()), PartitionRepository::map);
    }

    public Uni<Long> count(Long tableId, Visibility visibility) {
        Where where = filter(tableId, visibility);
        return single("SELECT count(*) FROM compaction_partition p JOIN compaction_table t ON t.table_id = p.table_id"
                + where.sql(), Long.class, where.params());
    }

    /** Partitions of one table, if given, of applications the caller may see. */
    private static Where filter(Long tableId, Visibility visibility) {
        return Where.all().eq("p.table_id", tableId).and(visible("t.application_id"), visibility.params());
    }

    /**
     * Closes one partition: its last live object id becomes the largest id among its non-delayed objects. Stays open
     * (empty result) when it has none, as in the reference; closing twice keeps the first value.
     */
    public Uni<Optional<Long>> close(long partitionId) {
        // Lock first, compute in a later statement: that statement's snapshot sees every registration that held the
        // row before us, so no live object is missed.
        return values("SELECT 1 FROM compaction_partition WHERE partition_id = :p FOR UPDATE", Integer.class,
                Params.of("p", partitionId))
                .chain(() -> value("""
                                UPDATE compaction_partition p SET closed_at = now(), last_live_object_id =
                                  (SELECT max(object_id) FROM small_object s WHERE s.partition_id = p.partition_id AND NOT s.delayed)
                                WHERE p.partition_id = :p AND p.last_live_object_id IS NULL
                                  AND EXISTS (SELECT 1 FROM small_object s WHERE s.partition_id = p.partition_id AND NOT s.delayed)
                                RETURNING last_live_object_id""", Long.class, Params.of("p", partitionId)));
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
                        ORDER BY p.partition_id""", Long.class, Params.of("now", now));
    }

    /** Switches every closed partition whose merged ranges reach its last live object; returns their ids. */
    public Uni<List<Long>> switchReady() {
        return values("""
                        UPDATE compaction_partition p SET switched = true, switched_at = now()
                        WHERE NOT p.switched AND p.last_live_object_id IS NOT NULL
                          AND (SELECT max(upper_bound) FROM merge_range r WHERE r.partition_id = p.partition_id)
                              >= p.last_live_object_id
                        RETURNING partition_id""", Long.class, Params.none());
    }

    /** desired := max(desired, upper): versions only grow. */
    public Uni<Integer> raiseDesired(long partitionId, long upper) {
        return update("""
                        UPDATE compaction_partition SET desired_manifest_version = GREATEST(desired_manifest_version, :u)
                        WHERE partition_id = :p""",
                Params.of("p", partitionId).and("u", upper));
    }

    /** Partitions the catalog must (re)publish: never published, or switched with a newer merge than published. */
    public Uni<List<Long>> toPublish() {
        return values("""
                        SELECT partition_id FROM compaction_partition
                        WHERE (NOT switched AND current_manifest_version < 0)
                           OR (switched AND current_manifest_version < desired_manifest_version
                               AND (rebuild_target IS NULL OR desired_manifest_version >= rebuild_target))
                        ORDER BY partition_id""", Long.class, Params.none());
    }

    /** Moves the published version from {@code expected} to {@code version}; false if another sync moved it first. */
    public Uni<Boolean> publish(long partitionId, long expected, long version) {
        return update("""
                        UPDATE compaction_partition SET current_manifest_version = :v
                        WHERE partition_id = :p AND current_manifest_version = :expected AND :v > current_manifest_version
                          -- a rebuild's chain is published whole or not at all: readers keep the old manifest until then
                          AND (rebuild_target IS NULL OR :v >= rebuild_target)""",
                Params.of("p", partitionId).and("expected", expected).and("v", version))
                .map(moved -> moved == 1);
    }

    /** Records a rebuild whose chain is complete once it reaches {@code target}. */
    public Uni<Integer> markRebuild(long partitionId, long target) {
        return update("""
                        UPDATE compaction_partition SET rebuild_target = :t, rebuild_requested_at = now()
                        WHERE partition_id = :p""", Params.of("p", partitionId).and("t", target));
    }

    /** Partitions at least this old, for garbage collection. */
    public Uni<List<Long>> olderThan(LocalDate date) {
        return values("SELECT partition_id FROM compaction_partition WHERE partition_date <= :d ORDER BY partition_id",
                Long.class, Params.of("d", date));
    }

    private static Partition map(Row r) {
        Long lastLive = r.getLongOrNull("last_live_object_id");
        long current = r.getLong("current_manifest_version");
        boolean switched = r.getBoolean("switched");
        return new Partition(r.getLong("partition_id"), r.getLong("table_id"), r.getString("schema_name"),
                r.getString("table_name"), r.getDate("partition_date"), current, r.getLong("desired_manifest_version"),
                lastLive, switched, PartitionState.of(switched, lastLive, current), r.getLong("late_objects"),
                StoreLocation.of(r.getString("store_kind"), r.getString("store_bucket"), r.getString("store_prefix")),
                r.getLong("application_id"));
    }
}
