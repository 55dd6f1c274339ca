package io.batchyard.queue.compaction.merge;

import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * Merge ranges of a partition. The table's constraints keep them a gapless chain from the sentinel (NULL, 0]; this
 * class only ever extends the last range or appends after it.
 */
public final class RangeStore {

    /** The partition's last (open) range, if any merge happened. */
    public Optional<MergeRange> openRange(Handle h, long partitionId) {
        return h.createQuery("""
                        SELECT lower_bound, upper_bound, content_length, record_count FROM merge_range
                        WHERE partition_id = :p AND upper_bound > 0 ORDER BY upper_bound DESC LIMIT 1""")
                .bind("p", partitionId).map(RangeStore::row).findOne();
    }

    /** Every non-sentinel range, ascending. */
    public List<MergeRange> ranges(Handle h, long partitionId) {
        return h.createQuery("""
                        SELECT lower_bound, upper_bound, content_length, record_count FROM merge_range
                        WHERE partition_id = :p AND upper_bound > 0 ORDER BY upper_bound""")
                .bind("p", partitionId).map(RangeStore::row).list();
    }

    /**
     * Records a merged object. A range with the same lower bound is widened, never narrowed (a stale writer cannot
     * shrink it); a gap, an overlap or widening a range that another follows fails on the chain constraints.
     */
    public void upsert(Handle tx, long partitionId, MergeRange range) {
        tx.createUpdate("""
                        INSERT INTO merge_range (partition_id, lower_bound, upper_bound, content_length)
                        VALUES (:p, NULL, 0, 0) ON CONFLICT DO NOTHING""")
                .bind("p", partitionId).execute();
        tx.createUpdate("""
                        INSERT INTO merge_range (partition_id, lower_bound, upper_bound, content_length, record_count)
                        VALUES (:p, :lower, :upper, :length, :records)
                        ON CONFLICT ON CONSTRAINT merge_range_lower DO UPDATE
                          SET upper_bound = EXCLUDED.upper_bound, content_length = EXCLUDED.content_length,
                              record_count = EXCLUDED.record_count, updated_at = now()
                          WHERE merge_range.upper_bound <= EXCLUDED.upper_bound""")
                .bind("p", partitionId).bind("lower", range.lowerBound()).bind("upper", range.upperBound())
                .bind("length", range.contentLength()).bind("records", range.recordCount()).execute();
    }

    private static MergeRange row(java.sql.ResultSet rs, org.jdbi.v3.core.statement.StatementContext ctx)
            throws java.sql.SQLException {
        return new MergeRange(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4));
    }
}
