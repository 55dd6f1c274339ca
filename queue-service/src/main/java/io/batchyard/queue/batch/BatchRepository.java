package io.batchyard.queue.batch;

import io.batchyard.eventing.persistence.Columns;

import static io.batchyard.eventing.persistence.Columns.longOrNull;
import static io.batchyard.eventing.persistence.Columns.time;
import static io.batchyard.eventing.persistence.Columns.toLong;

import io.batchyard.api.ChosenIds;
import io.batchyard.queue.NativeRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * SQL over batches and their files; every method joins the caller's session. Generated and client-chosen batch ids
 * live in disjoint ranges ({@link ChosenIds}).
 */
@ApplicationScoped
public class BatchRepository extends NativeRepository {

    public record Batch(long batchId, Long sourceInstanceExecId, String batchType, OffsetDateTime failedAt,
                        OffsetDateTime createdAt) {
    }

    public record FileRow(long batchId, long serverId, String path, long fileSize, String fileHash,
                          OffsetDateTime creationTs) {
    }

    public Uni<Long> create(Long sourceInstanceExecId, String type) {
        return value("""
                        INSERT INTO batch (source_instance_exec_id, batch_type) VALUES (CAST(:ie AS bigint), :type)
                        RETURNING batch_id""", Long.class,
                q -> q.setParameter("ie", sourceInstanceExecId).setParameter("type", type)).map(Optional::orElseThrow);
    }

    /**
     * Creates a batch with a client-chosen id unless it exists. Only ids of the client range are accepted, so the
     * row can never collide with a generated one and the sequence is left alone.
     */
    public Uni<Integer> createWithId(long batchId, String type) {
        if (!ChosenIds.choosable(batchId)) {
            throw new IllegalArgumentException(ChosenIds.outOfRange("batch id", batchId));
        }
        return update("""
                        INSERT INTO batch (batch_id, batch_type) OVERRIDING SYSTEM VALUE VALUES (:id, :type)
                        ON CONFLICT (batch_id) DO NOTHING""",
                q -> q.setParameter("id", batchId).setParameter("type", type));
    }

    public Uni<Optional<Batch>> find(long batchId) {
        return first("""
                        SELECT batch_id, source_instance_exec_id, batch_type, failed_at, created_at FROM batch
                        WHERE batch_id = :id""",
                q -> q.setParameter("id", batchId),
                r -> new Batch(toLong(r[0]), longOrNull(r[1]), (String) r[2], time(r[3]), time(r[4])));
    }

    public Uni<Integer> bindToRun(long batchId, long instanceExecId) {
        return update("UPDATE batch SET source_instance_exec_id = :ie, failed_at = NULL WHERE batch_id = :id",
                q -> q.setParameter("ie", instanceExecId).setParameter("id", batchId));
    }

    /** Marks a run's target batch failed, unless a retry has already taken it over (a late JobFailed). */
    public Uni<Integer> markFailed(long batchId, long failedRun) {
        return update("UPDATE batch SET failed_at = now() WHERE batch_id = :id AND source_instance_exec_id = :run",
                q -> q.setParameter("id", batchId).setParameter("run", failedRun));
    }

    /** Inserts a file; false when the same server, path and hash are already registered. */
    public Uni<Boolean> addFile(FileRow f) {
        return update("""
                        INSERT INTO file (batch_id, server_id, path, file_size, file_hash, creation_ts)
                        VALUES (:batchId, :serverId, :path, :fileSize, CAST(:fileHash AS text), :creationTs)
                        ON CONFLICT (server_id, path, COALESCE(file_hash, '')) DO NOTHING""",
                q -> q.setParameter("batchId", f.batchId()).setParameter("serverId", f.serverId())
                        .setParameter("path", f.path()).setParameter("fileSize", f.fileSize())
                        .setParameter("fileHash", f.fileHash()).setParameter("creationTs", f.creationTs()))
                .map(inserted -> inserted == 1);
    }

    public Uni<List<FileRow>> files(long minBatchId, long maxBatchId) {
        return rows("""
                        SELECT batch_id, server_id, path, file_size, file_hash, creation_ts FROM file
                        WHERE batch_id BETWEEN :min AND :max ORDER BY batch_id, file_id""",
                q -> q.setParameter("min", minBatchId).setParameter("max", maxBatchId),
                r -> new FileRow(toLong(r[0]), toLong(r[1]), (String) r[2], toLong(r[3]), (String) r[4], time(r[5])));
    }

    /** Paths of each batch's files, in registration order. */
    public Uni<Map<Long, List<String>>> pathsOf(Collection<Long> batchIds) {
        if (batchIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return rows("SELECT batch_id, path FROM file WHERE batch_id IN (:ids) ORDER BY file_id",
                q -> q.setParameter("ids", batchIds), r -> Map.entry(toLong(r[0]), (String) r[1]))
                .map(rows -> rows.stream().collect(Collectors.groupingBy(Map.Entry::getKey,
                        Collectors.mapping(Map.Entry::getValue, Collectors.toList()))));
    }

    /** The run that produced each batch (absent for the placeholder and file batches). */
    public Uni<Map<Long, Long>> producers(Collection<Long> batchIds) {
        if (batchIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return rows("""
                        SELECT batch_id, source_instance_exec_id FROM batch WHERE batch_id IN (:ids)
                          AND source_instance_exec_id IS NOT NULL""",
                q -> q.setParameter("ids", batchIds), r -> Map.entry(toLong(r[0]), toLong(r[1])))
                .map(rows -> rows.stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    }
}
