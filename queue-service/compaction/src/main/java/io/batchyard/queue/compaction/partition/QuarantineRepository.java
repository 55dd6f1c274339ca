package io.batchyard.queue.compaction.partition;

import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.batchyard.queue.compaction.store.StoreLocation;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** SQL over {@code small_object_quarantine}; every method joins the caller's session. */
@ApplicationScoped
public class QuarantineRepository extends SqlRepository {

    private static final String SELECT = """
            SELECT q.object_id, q.partition_id, t.schema_name, t.table_name, p.partition_date, q.source_key, q.state,
              q.line_number, q.error, q.quarantined_at, q.decided_at, t.store_kind, t.store_bucket, t.store_prefix
            FROM small_object_quarantine q
            JOIN compaction_partition p ON p.partition_id = q.partition_id
            JOIN compaction_table t ON t.table_id = p.table_id""";

    /**
     * Quarantines an object: a new row, or a released one that is bad again. A dropped object is never merged, so it
     * is never found bad again; a quarantined one is skipped by merges, so it is not found twice either.
     */
    public Uni<Integer> quarantine(long objectId, long partitionId, String sourceKey, Integer lineNumber, String error) {
        return update("""
                        INSERT INTO small_object_quarantine (object_id, partition_id, source_key, state, line_number, error)
                        VALUES (:o, :p, :key, 'QUARANTINED', CAST(:line AS int), :error)
                        ON CONFLICT (object_id) DO UPDATE
                          SET state = 'QUARANTINED', line_number = EXCLUDED.line_number, error = EXCLUDED.error,
                              quarantined_at = now(), decided_at = NULL
                          WHERE small_object_quarantine.state = 'RELEASED'""",
                Params.of("o", objectId).and("p", partitionId).and("key", sourceKey).and("line", lineNumber)
                        .and("error", truncate(error)));
    }

    /** Ids above {@code above} that merges must skip (quarantined or dropped), ascending. */
    public Uni<List<Long>> excludedAbove(long partitionId, long above) {
        return values("""
                        SELECT object_id FROM small_object_quarantine
                        WHERE partition_id = :p AND object_id > :above AND state IN ('QUARANTINED', 'DROPPED')
                        ORDER BY object_id""", Long.class,
                Params.of("p", partitionId).and("above", above));
    }

    /** The quarantine row of one object of the partition, locked for an operator's decision. */
    public Uni<Optional<QuarantinedObject>> lock(long partitionId, String sourceKey) {
        return first(SELECT + " WHERE q.partition_id = :p AND q.source_key = :key FOR UPDATE OF q",
                Params.of("p", partitionId).and("key", sourceKey), QuarantineRepository::map);
    }

    public Uni<Optional<QuarantinedObject>> find(long partitionId, String sourceKey) {
        return first(SELECT + " WHERE q.partition_id = :p AND q.source_key = :key",
                Params.of("p", partitionId).and("key", sourceKey), QuarantineRepository::map);
    }

    /** An operator's decision; {@code decided_at} says when. */
    public Uni<Integer> decide(long objectId, QuarantineState state) {
        return update("UPDATE small_object_quarantine SET state = :s, decided_at = now() WHERE object_id = :o",
                Params.of("o", objectId).and("s", state.name()));
    }

    public Uni<List<QuarantinedObject>> list(long partitionId, QuarantineState state, int limit, int offset) {
        Where where = filter(partitionId, state);
        return list(SELECT + where.sql() + " ORDER BY q.quarantined_at, q.object_id" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()), QuarantineRepository::map);
    }

    public Uni<Long> count(long partitionId, QuarantineState state) {
        Where where = filter(partitionId, state);
        return single("SELECT count(*) FROM small_object_quarantine q" + where.sql(), Long.class, where.params());
    }

    private static Where filter(long partitionId, QuarantineState state) {
        return Where.all().eq("q.partition_id", partitionId).eq("q.state", state == null ? null : state.name());
    }

    private static String truncate(String error) {
        return error.length() <= 500 ? error : error.substring(0, 500);
    }

    private static QuarantinedObject map(Row r) {
        return new QuarantinedObject(r.getLong("object_id"), r.getLong("partition_id"), r.getString("schema_name"),
                r.getString("table_name"), r.getDate("partition_date"), r.getString("source_key"),
                r.getEnum("state", QuarantineState.class), r.getIntOrNull("line_number"), r.getString("error"),
                r.getTime("quarantined_at"), r.getTime("decided_at"),
                StoreLocation.of(r.getString("store_kind"), r.getString("store_bucket"), r.getString("store_prefix")));
    }
}
