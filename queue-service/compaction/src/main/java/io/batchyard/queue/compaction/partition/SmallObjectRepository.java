package io.batchyard.queue.compaction.partition;

import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** SQL over small objects; every method joins the caller's session. */
@ApplicationScoped
public class SmallObjectRepository extends SqlRepository {

    private static final String COLUMNS = "object_id, partition_id, source_key, delayed, content_length, hold";

    /**
     * An object's state: a quarantine decision wins, then a late arrival (a range may cover its id with none of its
     * records); otherwise it is merged once a range reaches its id (ranges tile the ids without gaps from 0), else
     * waiting for its partition's mergeable window or pending.
     */
    private static final String WITH_STATE = """
            SELECT o.object_id, o.source_key, o.delayed, o.content_length, o.registered_at, o.state FROM (
              SELECT s.object_id, s.partition_id, s.source_key, s.delayed, s.content_length, s.registered_at,
                CASE WHEN q.state IN ('QUARANTINED', 'DROPPED') THEN q.state
                     WHEN s.hold = 'LATE' THEN 'LATE'
                     WHEN s.object_id <= COALESCE((SELECT max(r.upper_bound) FROM merge_range r
                                                   WHERE r.partition_id = s.partition_id), 0) THEN 'MERGED'
                     WHEN s.hold = 'WAITING' THEN 'WAITING'
                     ELSE 'PENDING' END AS state
              FROM small_object s LEFT JOIN small_object_quarantine q ON q.object_id = s.object_id) o""";

    /**
     * Inserts the object, delayed if and only if its partition is closed at this moment (decided inside the insert)
     * or it is late (merges leave a late object out, so the live prefix must not show it either); {@code hold} null
     * when a merge job is made for it. Empty when the same source key is already registered for the partition.
     */
    public Uni<Optional<SmallObject>> insert(long partitionId, String sourceKey, long contentLength,
                                             SmallObject.Hold hold) {
        return first("""
                        INSERT INTO small_object (partition_id, source_key, delayed, content_length, hold)
                        SELECT p.partition_id, :key,
                          p.last_live_object_id IS NOT NULL OR CAST(:hold AS text) IS NOT DISTINCT FROM 'LATE',
                          :length, CAST(:hold AS text)
                        FROM compaction_partition p WHERE p.partition_id = :p
                        ON CONFLICT (partition_id, source_key) DO NOTHING
                        RETURNING\s""" + COLUMNS,
                Params.of("p", partitionId).and("key", sourceKey).and("length", contentLength)
                        .and("hold", hold == null ? null : hold.name()),
                SmallObjectRepository::map);
    }

    public Uni<Optional<SmallObject>> find(long partitionId, String sourceKey) {
        return first("SELECT " + COLUMNS + " FROM small_object WHERE partition_id = :p AND source_key = :key",
                Params.of("p", partitionId).and("key", sourceKey), SmallObjectRepository::map);
    }

    /** Objects not merged yet (id above {@code above}), ids ascending, live and delayed alike. */
    public Uni<List<SmallObject>> unmerged(long partitionId, long above, int limit) {
        return list("""
                        SELECT\s""" + COLUMNS + """
                         FROM small_object WHERE partition_id = :p AND object_id > :above
                        ORDER BY object_id LIMIT :limit""",
                Params.of("p", partitionId).and("above", above).and("limit", limit), SmallObjectRepository::map);
    }

    /**
     * Gives the object a fresh id from the sequence, above every merged range, so the next merge takes it up again
     * (its quarantine row follows by ON UPDATE CASCADE); its size is read anew because it was fixed.
     */
    public Uni<SmallObject> renumber(long objectId, long contentLength) {
        return first("UPDATE small_object SET object_id = DEFAULT, content_length = :length WHERE object_id = :o RETURNING "
                        + COLUMNS, Params.of("o", objectId).and("length", contentLength),
                SmallObjectRepository::map).map(Optional::orElseThrow);
    }

    /**
     * The objects a rebuild merges again: all but the quarantined and dropped ones (late ones included), ids
     * ascending.
     */
    public Uni<List<SmallObject>> rebuildable(long partitionId) {
        return list("""
                        SELECT\s""" + COLUMNS + """
                         FROM small_object s WHERE partition_id = :p
                          AND NOT EXISTS (SELECT 1 FROM small_object_quarantine q
                                          WHERE q.object_id = s.object_id AND q.state IN ('QUARANTINED', 'DROPPED'))
                        ORDER BY object_id""",
                Params.of("p", partitionId), SmallObjectRepository::map);
    }

    /**
     * A fresh id from the sequence for an object a rebuild merges again (its quarantine row, if any, follows); a
     * late or waiting object is held no longer, since the rebuild's merges take it in.
     */
    public Uni<SmallObject> renumber(long objectId) {
        return first("UPDATE small_object SET object_id = DEFAULT, hold = NULL WHERE object_id = :o RETURNING "
                        + COLUMNS,
                Params.of("o", objectId), SmallObjectRepository::map).map(Optional::orElseThrow);
    }

    /** The partition's objects with what became of them, ids ascending, optionally of one state. */
    public Uni<List<PartitionObject>> list(long partitionId, PartitionObject.State state, int limit, int offset) {
        Where where = filter(partitionId, state);
        return list(WITH_STATE + where.sql() + " ORDER BY o.object_id" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()),
                r -> new PartitionObject(r.getLong("object_id"), r.getString("source_key"), r.getBoolean("delayed"),
                        r.getLong("content_length"), r.getTime("registered_at"),
                        r.getEnum("state", PartitionObject.State.class)));
    }

    public Uni<Long> count(long partitionId, PartitionObject.State state) {
        Where where = filter(partitionId, state);
        return single("SELECT count(*) FROM (" + WITH_STATE + where.sql() + ") c", Long.class, where.params());
    }

    private static Where filter(long partitionId, PartitionObject.State state) {
        return Where.all().eq("o.partition_id", partitionId).eq("o.state", state == null ? null : state.name());
    }

    /** The partition's late objects, ids ascending. */
    public Uni<List<SmallObject>> late(long partitionId) {
        return list("SELECT " + COLUMNS + " FROM small_object WHERE partition_id = :p AND hold = 'LATE'"
                + " ORDER BY object_id", Params.of("p", partitionId), SmallObjectRepository::map);
    }

    /**
     * Partitions of tables not dropped that hold waiting objects no merged range reaches yet (an object a merge took
     * up anyway, made due by an operator, is waiting no longer), ids ascending.
     */
    public Uni<List<Long>> partitionsWaiting() {
        return values("""
                        SELECT DISTINCT s.partition_id FROM small_object s
                        JOIN compaction_partition p ON p.partition_id = s.partition_id
                        JOIN compaction_table t ON t.table_id = p.table_id
                        WHERE s.hold = 'WAITING' AND t.dropped_at IS NULL
                          AND s.object_id > COALESCE((SELECT max(r.upper_bound) FROM merge_range r
                                                      WHERE r.partition_id = s.partition_id), 0)
                        ORDER BY s.partition_id""", Long.class, Params.none());
    }

    /** The partition's waiting objects wait no longer: its merge job was made. */
    public Uni<Integer> stopWaiting(long partitionId) {
        return update("UPDATE small_object SET hold = NULL WHERE partition_id = :p AND hold = 'WAITING'",
                Params.of("p", partitionId));
    }

    private static SmallObject map(Row r) {
        return new SmallObject(r.getLong("object_id"), r.getLong("partition_id"), r.getString("source_key"),
                r.getBoolean("delayed"), r.getLong("content_length"), r.getEnum("hold", SmallObject.Hold.class));
    }
}
