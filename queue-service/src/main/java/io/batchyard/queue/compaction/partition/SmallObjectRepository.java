package io.batchyard.queue.compaction.partition;

import io.batchyard.eventing.persistence.Columns;

import static io.batchyard.eventing.persistence.Columns.toLong;

import io.batchyard.queue.NativeRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** SQL over small objects; every method joins the caller's session. */
@ApplicationScoped
public class SmallObjectRepository extends NativeRepository {

    private static final String COLUMNS = "object_id, partition_id, source_key, delayed, content_length";

    /**
     * Inserts the object, delayed if and only if its partition is closed at this moment (decided inside the insert).
     * Empty when the same source key is already registered for the partition.
     */
    public Uni<Optional<SmallObject>> insert(long partitionId, String sourceKey, long contentLength) {
        return first("""
                        INSERT INTO small_object (partition_id, source_key, delayed, content_length)
                        SELECT p.partition_id, :key, p.last_live_object_id IS NOT NULL, :length
                        FROM compaction_partition p WHERE p.partition_id = :p
                        ON CONFLICT (partition_id, source_key) DO NOTHING
                        RETURNING\s""" + COLUMNS,
                q -> q.setParameter("p", partitionId).setParameter("key", sourceKey).setParameter("length", contentLength),
                SmallObjectRepository::row);
    }

    public Uni<Optional<SmallObject>> find(long partitionId, String sourceKey) {
        return first("SELECT " + COLUMNS + " FROM small_object WHERE partition_id = :p AND source_key = :key",
                q -> q.setParameter("p", partitionId).setParameter("key", sourceKey), SmallObjectRepository::row);
    }

    /** Objects not merged yet (id above {@code above}), ids ascending, live and delayed alike. */
    public Uni<List<SmallObject>> unmerged(long partitionId, long above, int limit) {
        return rows("""
                        SELECT\s""" + COLUMNS + """
                         FROM small_object WHERE partition_id = :p AND object_id > :above
                        ORDER BY object_id LIMIT :limit""",
                q -> q.setParameter("p", partitionId).setParameter("above", above).setParameter("limit", limit),
                SmallObjectRepository::row);
    }

    private static SmallObject row(Object[] r) {
        return new SmallObject(toLong(r[0]), toLong(r[1]), (String) r[2], (Boolean) r[3], toLong(r[4]));
    }
}
