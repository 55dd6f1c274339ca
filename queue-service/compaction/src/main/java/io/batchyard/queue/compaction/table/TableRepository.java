package io.batchyard.queue.compaction.table;

import static io.batchyard.queue.access.Visibility.visible;

import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.queue.access.Visibility;
import io.batchyard.queue.compaction.store.StoreLocation;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** SQL over compaction tables; every method joins the caller's session. */
@ApplicationScoped
public class TableRepository extends SqlRepository {

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
                Params.of("s", schema).and("t", table).and("interval", mergeIntervalSeconds)
                        .and("zone", zoneOffsetMinutes).and("kind", store.kind().json()).and("bucket", store.bucket())
                        .and("prefix", store.prefix()).and("application", applicationId),
                TableRepository::map);
    }

    /**
     * Whether another table of the bucket has a prefix that nests with {@code prefix} (one a proper beginning of the
     * other; the empty prefix nests with every other).
     */
    public Uni<Boolean> prefixNests(String bucket, String prefix) {
        return single("""
                        SELECT EXISTS (SELECT 1 FROM compaction_table
                          WHERE store_kind = 's3' AND store_bucket = :b AND store_prefix <> :p
                            AND (left(:p, length(store_prefix)) = store_prefix
                              OR left(store_prefix, length(:p)) = :p))""",
                Boolean.class, Params.of("b", bucket).and("p", prefix));
    }

    public Uni<Optional<CompactionTable>> find(String schema, String table) {
        return first("SELECT " + COLUMNS + " FROM compaction_table WHERE schema_name = :s AND table_name = :t",
                Params.of("s", schema).and("t", table), TableRepository::map);
    }

    public Uni<Optional<CompactionTable>> find(long tableId) {
        return first("SELECT " + COLUMNS + " FROM compaction_table WHERE table_id = :id",
                Params.of("id", tableId), TableRepository::map);
    }

    /** Replaces the table's settings; empty when there is no such table. */
    public Uni<Optional<CompactionTable>> updateSettings(long tableId, TableSettings s) {
        return first("""
                        UPDATE compaction_table SET merged_object_size = :size, merge_interval_seconds = :interval,
                          acceptance_past_days = :past, acceptance_future_days = :future, mergeable_delay_days = :delay,
                          time_zone = CAST(:zone AS text), settings_updated_at = now()
                        WHERE table_id = :id
                        RETURNING\s""" + COLUMNS,
                Params.of("id", tableId).and("size", s.mergedObjectSize()).and("interval", s.mergeIntervalSeconds())
                        .and("past", s.acceptancePastDays()).and("future", s.acceptanceFutureDays())
                        .and("delay", s.mergeableDelayDays()).and("zone", s.timeZone()),
                TableRepository::map);
    }

    /** Whether PostgreSQL knows the zone: the close step converts with it in SQL, so Java knowing it is not enough. */
    public Uni<Boolean> zoneKnown(String zone) {
        return single("SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = :z)", Boolean.class,
                Params.of("z", zone));
    }

    /** The tables of applications the caller may see. */
    public Uni<List<CompactionTable>> list(Visibility visibility, int limit, int offset) {
        return list("SELECT " + COLUMNS + " FROM compaction_table WHERE " + visible("application_id")
                        + " ORDER BY table_id" + Paging.CLAUSE,
                visibility.params().and(new Paging(limit, offset).params()), TableRepository::map);
    }

    public Uni<Long> count(Visibility visibility) {
        return single("SELECT count(*) FROM compaction_table WHERE " + visible("application_id"), Long.class,
                visibility.params());
    }

    private static CompactionTable map(Row r) {
        int mergeInterval = r.getInt("merge_interval_seconds");
        return new CompactionTable(r.getLong("table_id"), r.getString("schema_name"), r.getString("table_name"),
                mergeInterval, r.getInt("zone_offset_minutes"),
                new TableSettings(r.getLongOrNull("merged_object_size"), mergeInterval,
                        r.getIntOrNull("acceptance_past_days"), r.getIntOrNull("acceptance_future_days"),
                        r.getIntOrNull("mergeable_delay_days"), r.getString("time_zone")),
                StoreLocation.of(r.getString("store_kind"), r.getString("store_bucket"), r.getString("store_prefix")),
                r.getLong("application_id"));
    }
}
