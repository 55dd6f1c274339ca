package io.batchyard.queue.compaction.table;

import io.batchyard.persistence.Columns;

import static io.batchyard.persistence.Columns.intOrNull;
import static io.batchyard.persistence.Columns.longOrNull;
import static io.batchyard.persistence.Columns.toInt;
import static io.batchyard.persistence.Columns.toLong;

import io.batchyard.queue.NativeRepository;
import io.batchyard.queue.Visibility;
import io.batchyard.queue.compaction.store.StoreLocation;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** SQL over compaction tables; every method joins the caller's session. */
@ApplicationScoped
public class TableRepository extends NativeRepository {

    private static final String COLUMNS = """
            table_id, schema_name, table_name, merge_interval_seconds, zone_offset_minutes, merged_object_size,
            acceptance_past_days, acceptance_future_days, mergeable_delay_days, time_zone, store_kind, store_bucket,
            store_prefix, application_id""";

    /** Inserts the table unless one of that name exists; empty when it existed. */
    public Uni<Optional<CompactionTable>> insert(String schema, String table, int mergeIntervalSeconds,
                                                 int zoneOffsetMinutes, StoreLocation store, long applicationId) {
        return first("""
                        INSERT INTO compaction_table (schema_name, table_name, merge_interval_seconds, zone_offset_minutes,
                          store_kind, store_bucket, store_prefix, application_id)
                        VALUES (:s, :t, :interval, :zone, :kind, CAST(:bucket AS text), :prefix, :application)
                        ON CONFLICT (schema_name, table_name) DO NOTHING
                        RETURNING\s""" + COLUMNS,
                q -> q.setParameter("s", schema).setParameter("t", table).setParameter("interval", mergeIntervalSeconds)
                        .setParameter("zone", zoneOffsetMinutes).setParameter("kind", store.kind().json())
                        .setParameter("bucket", store.bucket()).setParameter("prefix", store.prefix())
                        .setParameter("application", applicationId),
                TableRepository::row);
    }

    /**
     * Whether another table of the bucket has a prefix that nests with {@code prefix} (one a proper beginning of the
     * other; the empty prefix nests with every other).
     */
    public Uni<Boolean> prefixNests(String bucket, String prefix) {
        return value("""
                        SELECT EXISTS (SELECT 1 FROM compaction_table
                          WHERE store_kind = 's3' AND store_bucket = :b AND store_prefix <> :p
                            AND (left(:p, length(store_prefix)) = store_prefix
                              OR left(store_prefix, length(:p)) = :p))""",
                Boolean.class, q -> q.setParameter("b", bucket).setParameter("p", prefix)).map(Optional::orElseThrow);
    }

    public Uni<Optional<CompactionTable>> find(String schema, String table) {
        return first("SELECT " + COLUMNS + " FROM compaction_table WHERE schema_name = :s AND table_name = :t",
                q -> q.setParameter("s", schema).setParameter("t", table), TableRepository::row);
    }

    public Uni<Optional<CompactionTable>> find(long tableId) {
        return first("SELECT " + COLUMNS + " FROM compaction_table WHERE table_id = :id",
                q -> q.setParameter("id", tableId), TableRepository::row);
    }

    /** Replaces the table's settings; empty when there is no such table. */
    public Uni<Optional<CompactionTable>> updateSettings(long tableId, TableSettings s) {
        return first("""
                        UPDATE compaction_table SET merged_object_size = :size, merge_interval_seconds = :interval,
                          acceptance_past_days = :past, acceptance_future_days = :future, mergeable_delay_days = :delay,
                          time_zone = CAST(:zone AS text), settings_updated_at = now()
                        WHERE table_id = :id
                        RETURNING\s""" + COLUMNS,
                q -> q.setParameter("id", tableId).setParameter("size", s.mergedObjectSize())
                        .setParameter("interval", s.mergeIntervalSeconds()).setParameter("past", s.acceptancePastDays())
                        .setParameter("future", s.acceptanceFutureDays()).setParameter("delay", s.mergeableDelayDays())
                        .setParameter("zone", s.timeZone()),
                TableRepository::row);
    }

    /** Whether PostgreSQL knows the zone: the close step converts with it in SQL, so Java knowing it is not enough. */
    public Uni<Boolean> zoneKnown(String zone) {
        return value("SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = :z)", Boolean.class,
                q -> q.setParameter("z", zone)).map(Optional::orElseThrow);
    }

    /** The tables of applications the caller may see. */
    public Uni<List<CompactionTable>> list(Visibility visibility, int limit, int offset) {
        return rows("SELECT " + COLUMNS + " FROM compaction_table WHERE " + visible("application_id")
                        + " ORDER BY table_id LIMIT :limit OFFSET :offset",
                q -> bind(q, visibility).setParameter("limit", limit).setParameter("offset", offset),
                TableRepository::row);
    }

    public Uni<Long> count(Visibility visibility) {
        return value("SELECT count(*) FROM compaction_table WHERE " + visible("application_id"), Long.class,
                q -> bind(q, visibility)).map(Optional::orElseThrow);
    }

    private static CompactionTable row(Object[] r) {
        return new CompactionTable(toLong(r[0]), (String) r[1], (String) r[2], toInt(r[3]), toInt(r[4]),
                new TableSettings(longOrNull(r[5]), toInt(r[3]), intOrNull(r[6]), intOrNull(r[7]), intOrNull(r[8]),
                        (String) r[9]), StoreLocation.of((String) r[10], (String) r[11], (String) r[12]),
                toLong(r[13]));
    }
}
