package io.batchyard.queue.compaction.partition;

import static io.batchyard.persistence.Columns.date;
import static io.batchyard.persistence.Columns.intOrNull;
import static io.batchyard.persistence.Columns.time;
import static io.batchyard.persistence.Columns.toLong;

import io.batchyard.queue.NativeRepository;
import io.batchyard.queue.compaction.store.StoreLocation;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** SQL over {@code small_object_quarantine}; every method joins the caller's session. */
@ApplicationScoped
public class QuarantineRepository extends NativeRepository {

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
                q -> q.setParameter("o", objectId).setParameter("p", partitionId).setParameter("key", sourceKey)
                        .setParameter("line", lineNumber).setParameter("error", truncate(error)));
    }

    /** Ids above {@code above} that merges must skip (quarantined or dropped), ascending. */
    public Uni<List<Long>> excludedAbove(long partitionId, long above) {
        return values("""
                        SELECT object_id FROM small_object_quarantine
                        WHERE partition_id = :p AND object_id > :above AND state IN ('QUARANTINED', 'DROPPED')
                        ORDER BY object_id""", Long.class,
                q -> q.setParameter("p", partitionId).setParameter("above", above));
    }

    /** The quarantine row of one object of the partition, locked for an operator's decision. */
    public Uni<Optional<QuarantinedObject>> lock(long partitionId, String sourceKey) {
        return first(SELECT + " WHERE q.partition_id = :p AND q.source_key = :key FOR UPDATE OF q",
                q -> q.setParameter("p", partitionId).setParameter("key", sourceKey), QuarantineRepository::row);
    }

    public Uni<Optional<QuarantinedObject>> find(long partitionId, String sourceKey) {
        return first(SELECT + " WHERE q.partition_id = :p AND q.source_key = :key",
                q -> q.setParameter("p", partitionId).setParameter("key", sourceKey), QuarantineRepository::row);
    }

    /** An operator's decision; {@code decided_at} says when. */
    public Uni<Integer> decide(long objectId, QuarantineState state) {
        return update("UPDATE small_object_quarantine SET state = :s, decided_at = now() WHERE object_id = :o",
                q -> q.setParameter("o", objectId).setParameter("s", state.name()));
    }

    public Uni<List<QuarantinedObject>> list(long partitionId, QuarantineState state, int limit, int offset) {
        Filter filter = filter(partitionId, state);
        return rows(SELECT + filter.where() + " ORDER BY q.quarantined_at, q.object_id LIMIT :limit OFFSET :offset",
                q -> bind(q, filter).setParameter("limit", limit).setParameter("offset", offset),
                QuarantineRepository::row);
    }

    public Uni<Long> count(long partitionId, QuarantineState state) {
        Filter filter = filter(partitionId, state);
        return value("SELECT count(*) FROM small_object_quarantine q" + filter.where(), Long.class, q -> bind(q, filter))
                .map(Optional::orElseThrow);
    }

    private static Filter filter(long partitionId, QuarantineState state) {
        return Filter.of("q.partition_id", partitionId, "q.state", state == null ? null : state.name());
    }

    private static String truncate(String error) {
        return error.length() <= 500 ? error : error.substring(0, 500);
    }

    private static QuarantinedObject row(Object[] r) {
        return new QuarantinedObject(toLong(r[0]), toLong(r[1]), (String) r[2], (String) r[3], date(r[4]),
                (String) r[5], QuarantineState.valueOf((String) r[6]), intOrNull(r[7]), (String) r[8], time(r[9]),
                time(r[10]), StoreLocation.of((String) r[11], (String) r[12], (String) r[13]));
    }
}
