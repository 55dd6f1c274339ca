package io.batchyard.queue.compaction.merge;

import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/**
 * Merge ranges of a partition. The table's constraints keep them a gapless chain from the sentinel (NULL, 0]; this
 * class only ever extends the last range or appends after it. Every method joins the caller's session.
 */
@ApplicationScoped
public class RangeRepository extends SqlRepository {

    private static final String SELECT = """
            SELECT lower_bound, upper_bound, content_length, record_count FROM merge_range
            WHERE partition_id = :p AND upper_bound > 0""";

    /** The partition's last (open) range, if any merge happened. */
    public Uni<Optional<MergeRange>> openRange(long partitionId) {
        return first(SELECT + " ORDER BY upper_bound DESC LIMIT 1", Params.of("p", partitionId),
                RangeRepository::map);
    }

    /** Every non-sentinel range, ascending. */
    public Uni<List<MergeRange>> ranges(long partitionId) {
        return list(SELECT + " ORDER BY upper_bound", Params.of("p", partitionId), RangeRepository::map);
    }

    /** One page of the non-sentinel ranges, ascending. */
    public Uni<List<MergeRange>> ranges(long partitionId, int limit, int offset) {
        return list(SELECT + " ORDER BY upper_bound" + Paging.CLAUSE,
                Params.of("p", partitionId).and(new Paging(limit, offset).params()), RangeRepository::map);
    }

    public Uni<Long> count(long partitionId) {
        return single("SELECT count(*) FROM merge_range WHERE partition_id = :p AND upper_bound > 0", Long.class,
                Params.of("p", partitionId));
    }

    /**
     * Records a merged object. A range with the same lower bound is widened, never narrowed (a stale writer cannot
     * shrink it); a gap, an overlap or widening a range that another follows fails on the chain constraints.
     */
    public Uni<Integer> upsert(long partitionId, MergeRange range) {
        return update("""
                        INSERT INTO merge_range (partition_id, lower_bound, upper_bound, content_length)
                        VALUES (:p, NULL, 0, 0) ON CONFLICT DO NOTHING""", Params.of("p", partitionId))
                .chain(() -> update("""
                                INSERT INTO merge_range (partition_id, lower_bound, upper_bound, content_length, record_count)
                                VALUES (:p, :lower, :upper, :length, :records)
                                ON CONFLICT ON CONSTRAINT merge_range_lower DO UPDATE
                                  SET upper_bound = EXCLUDED.upper_bound, content_length = EXCLUDED.content_length,
                                      record_count = EXCLUDED.record_count, updated_at = now()
                                  WHERE merge_range.upper_bound <= EXCLUDED.upper_bound""",
                        Params.of("p", partitionId).and("lower", range.lowerBound()).and("upper", range.upperBound())
                                .and("length", range.contentLength()).and("records", range.recordCount())));
    }

    /**
     * Back to the sentinel (a rebuild): every other range goes in one statement, so the chain's foreign key, checked
     * at its end, never sees a dangling lower bound.
     */
    public Uni<Integer> reset(long partitionId) {
        return update("DELETE FROM merge_range WHERE partition_id = :p AND upper_bound > 0",
                Params.of("p", partitionId));
    }

    private static MergeRange map(Row r) {
        return new MergeRange(r.getLong("lower_bound"), r.getLong("upper_bound"), r.getLong("content_length"),
                r.getLong("record_count"));
    }
}
