package io.batchyard.queue.batch;

import io.batchyard.api.ChosenIds;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;

/** Batches and their files. Generated and client-chosen batch ids live in disjoint ranges ({@link ChosenIds}). */
@ApplicationScoped
public class BatchStore {

    public record Batch(long batchId, Long sourceInstanceExecId, String batchType, OffsetDateTime failedAt,
                        OffsetDateTime createdAt) {
    }

    public record FileRow(long batchId, long serverId, String path, long fileSize, String fileHash,
                          OffsetDateTime creationTs) {
    }

    public long create(Handle tx, Long sourceInstanceExecId, String type) {
        return tx.createQuery("INSERT INTO batch (source_instance_exec_id, batch_type) VALUES (:ie, :type) RETURNING batch_id")
                .bind("ie", sourceInstanceExecId).bind("type", type).mapTo(Long.class).one();
    }

    /**
     * Creates a batch with a client-chosen id unless it exists. Only ids of the client range are accepted, so the
     * row can never collide with a generated one and the sequence is left alone.
     */
    public void createWithId(Handle tx, long batchId, String type) {
        if (!ChosenIds.choosable(batchId)) {
            throw new IllegalArgumentException(ChosenIds.outOfRange("batch id", batchId));
        }
        tx.createUpdate("""
                        INSERT INTO batch (batch_id, batch_type) OVERRIDING SYSTEM VALUE VALUES (:id, :type)
                        ON CONFLICT (batch_id) DO NOTHING""")
                .bind("id", batchId).bind("type", type).execute();
    }

    public Optional<Batch> find(Handle h, long batchId) {
        return h.createQuery("SELECT * FROM batch WHERE batch_id = :id").bind("id", batchId)
                .map((rs, ctx) -> new Batch(rs.getLong("batch_id"),
                        rs.getObject("source_instance_exec_id") == null ? null : rs.getLong("source_instance_exec_id"),
                        rs.getString("batch_type"), rs.getObject("failed_at", OffsetDateTime.class),
                        rs.getObject("created_at", OffsetDateTime.class)))
                .findOne();
    }

    public void bindToRun(Handle tx, long batchId, long instanceExecId) {
        tx.createUpdate("UPDATE batch SET source_instance_exec_id = :ie, failed_at = NULL WHERE batch_id = :id")
                .bind("ie", instanceExecId).bind("id", batchId).execute();
    }

    /** Marks a run's target batch failed, unless a retry has already taken it over (a late JobFailed). */
    public void markFailed(Handle tx, long batchId, long failedRun) {
        tx.createUpdate("UPDATE batch SET failed_at = now() WHERE batch_id = :id AND source_instance_exec_id = :run")
                .bind("id", batchId).bind("run", failedRun).execute();
    }

    /** Inserts a file; false when the same server, path and hash are already registered. */
    public boolean addFile(Handle tx, FileRow f) {
        return tx.createUpdate("""
                        INSERT INTO file (batch_id, server_id, path, file_size, file_hash, creation_ts)
                        VALUES (:batchId, :serverId, :path, :fileSize, :fileHash, :creationTs)
                        ON CONFLICT (server_id, path, COALESCE(file_hash, '')) DO NOTHING""")
                .bindMethods(f).execute() == 1;
    }

    public List<FileRow> files(Handle h, long minBatchId, long maxBatchId) {
        return h.createQuery("""
                        SELECT * FROM file WHERE batch_id BETWEEN :min AND :max ORDER BY batch_id, file_id""")
                .bind("min", minBatchId).bind("max", maxBatchId)
                .map((rs, ctx) -> new FileRow(rs.getLong("batch_id"), rs.getLong("server_id"), rs.getString("path"),
                        rs.getLong("file_size"), rs.getString("file_hash"),
                        rs.getObject("creation_ts", OffsetDateTime.class)))
                .list();
    }

    /** Paths of each batch's files, in registration order. */
    public Map<Long, List<String>> pathsOf(Handle h, List<Long> batchIds) {
        return h.createQuery("SELECT batch_id, path FROM file WHERE batch_id = ANY(:ids) ORDER BY file_id")
                .bindArray("ids", Long.class, batchIds)
                .map((rs, ctx) -> Map.entry(rs.getLong(1), rs.getString(2))).list().stream()
                .collect(Collectors.groupingBy(Map.Entry::getKey, Collectors.mapping(Map.Entry::getValue, Collectors.toList())));
    }

    /** The run that produced each batch (null for the placeholder and file batches). */
    public Map<Long, Long> producers(Handle h, List<Long> batchIds) {
        return h.createQuery("SELECT batch_id, source_instance_exec_id FROM batch WHERE batch_id = ANY(:ids) "
                        + "AND source_instance_exec_id IS NOT NULL")
                .bindArray("ids", Long.class, batchIds)
                .map((rs, ctx) -> Map.entry(rs.getLong(1), rs.getLong(2))).list().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
