package io.batchyard.queue.compaction.merge;

import io.batchyard.persistence.Columns;

import static io.batchyard.persistence.Columns.toLong;

import io.batchyard.queue.NativeRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/**
 * Merge ranges of a partition. The table's constraints keep them a gapless chain from the sentinel (NULL, 0]; this
 * class only ever extends the last range or appends after it. Every method joins the caller's session.
 */
@ApplicationScoped
public class RangeRepository extends NativeRepository {

    private static final String SELECT = """
            SELECT lower_bound, upper_bound, content_length, record_count FROM merge_range
            WHERE partition_id = :p AND upper_bound > 0""";

    /** The partition's last (open) range, if any merge happened. */
    public Uni<Optional<MergeRange>> openRange(long partitionId) {
        return first(SELECT + " ORDER BY upper_bound DESC LIMIT 1", q -> q.setParameter("p", partitionId),
                RangeRepository::row);
    }

    /** Every non-sentinel range, ascending. */
    public Uni<List<MergeRange>> ranges(long partitionId) {
        return rows(SELECT + " ORDER BY upper_bound", q -> q.setParameter("p", partitionId), RangeRepository::row);
    }

    /** One page of the non-sentinel ranges, ascending. */
    public Uni<List<MergeRange>> ranges(long partitionId, int limit, int offset) {
        return rows(SELECT + " ORDER BY upper_bound LIMIT :limit OFFSET :offset",
                q -> q.setParameter("p", partitionId).setParameter("limit", limit).setParameter("offset", offset),
                RangeRepository::row);
    }

    public Uni<Long> count(long partitionId) {
        return value("SELECT count(*) FROM merge_range WHERE partition_id = :p AND upper_bound > 0", Long.class,
                q -> q.setParameter("p", partitionId)).map(java.util.Optional::orElseThrow);
    }

    /**
     * Records a merged object. A range with the same lower bound is widened, never narrowed (a stale writer cannot
     * shrink it); a gap, an overlap or widening a range that another follows fails on the chain constraints.
     */
    public Uni<Integer> upsert(long partitionId, MergeRange range) {
        return update("""
                        INSERT INTO merge_range (partition_id, lower_bound, upper_bound, content_length)
                        VALUES (:p, NULL, 0, 0) ON CONFLICT DO NOTHING""", q -> q.setParameter("p", partitionId))
                .chain(() -> update("""
                                INSERT INTO merge_range (partition_id, lower_bound, upper_bound, content_length, record_count)
                                VALUES (:p, :lower, :upper, :length, :records)
                                ON CONFLICT ON CONSTRAINT merge_range_lower DO UPDATE
                                  SET upper_bound = EXCLUDED.upper_bound, content_length = EXCLUDED.content_length,
                                      record_count = EXCLUDED.record_count, updated_at = now()
                                  WHERE merge_range.upper_bound <= EXCLUDED.upper_bound""",
                        q -> q.setParameter("p", partitionId).setParameter("lower", range.lowerBound())
                                .setParameter("upper", range.upperBound()).setParameter("length", range.contentLength())
                                .setParameter("records", range.recordCount())));
    }

    /**
     * Back to the sentinel (a rebuild): every other range goes in one statement, so the chain's foreign key, checked
     * at its end, never sees a dangling lower bound.
     */
    public Uni<Integer> reset(long partitionId) {
        return update("DELETE FROM merge_range WHERE partition_id = :p AND upper_bound > 0",
                q -> q.setParameter("p", partitionId));
    }

    private static MergeRange row(Object[] r) {
        return new MergeRange(toLong(r[0]), toLong(r[1]), toLong(r[2]), toLong(r[3]));
    }
}
