package io.batchyard.queue.compaction.catalog;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;

/** SQL over compaction tables; every method runs on the caller's handle. */
public final class TableStore {

    /** Inserts the table unless one of that name exists; returns the stored row and whether it was created now. */
    public Registered register(Handle tx, String schema, String table, int mergeIntervalSeconds, int zoneOffsetMinutes) {
        Optional<CompactionTable> created = tx.createQuery("""
                        INSERT INTO compaction_table (schema_name, table_name, merge_interval_seconds, zone_offset_minutes)
                        VALUES (:s, :t, :interval, :zone) ON CONFLICT (schema_name, table_name) DO NOTHING RETURNING *""")
                .bind("s", schema).bind("t", table).bind("interval", mergeIntervalSeconds).bind("zone", zoneOffsetMinutes)
                .map(TableStore::row).findOne();
        return created.map(t -> new Registered(t, true))
                .orElseGet(() -> new Registered(find(tx, schema, table).orElseThrow(), false));
    }

    /** A registration's outcome. */
    public record Registered(CompactionTable table, boolean created) {
    }

    public Optional<CompactionTable> find(Handle h, String schema, String table) {
        return h.createQuery("SELECT * FROM compaction_table WHERE schema_name = :s AND table_name = :t")
                .bind("s", schema).bind("t", table).map(TableStore::row).findOne();
    }

    public List<CompactionTable> list(Handle h, int limit, int offset) {
        return h.createQuery("SELECT * FROM compaction_table ORDER BY table_id LIMIT :limit OFFSET :offset")
                .bind("limit", limit).bind("offset", offset).map(TableStore::row).list();
    }

    public long count(Handle h) {
        return h.createQuery("SELECT count(*) FROM compaction_table").mapTo(Long.class).one();
    }

    private static CompactionTable row(ResultSet rs, StatementContext ctx) throws SQLException {
        return new CompactionTable(rs.getLong("table_id"), rs.getString("schema_name"), rs.getString("table_name"),
                rs.getInt("merge_interval_seconds"), rs.getInt("zone_offset_minutes"));
    }
}
