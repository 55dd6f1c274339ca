package io.batchyard.queue.batch;

import static io.batchyard.queue.access.Visibility.applicationOfProcess;
import static io.batchyard.queue.access.Visibility.visible;

import io.batchyard.api.ChosenIds;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.queue.access.Visibility;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * SQL over batches and their files; every method joins the caller's session. Generated and client-chosen batch ids
 * live in disjoint ranges ({@link ChosenIds}).
 */
@ApplicationScoped
public class BatchRepository extends SqlRepository {

    public Uni<Long> create(Long sourceInstanceExecId, String type) {
        return create(sourceInstanceExecId, type, null);
    }

    /** A new batch, registered for {@code processId} (null: a run's, or one registered for no process). */
    public Uni<Long> create(Long sourceInstanceExecId, String type, Long processId) {
        return value("""
                        INSERT INTO batch (source_instance_exec_id, batch_type, process_id)
                        VALUES (CAST(:ie AS bigint), :type, CAST(:process AS bigint))
                        RETURNING batch_id""", Long.class,
                Params.of("ie", sourceInstanceExecId).and("type", type).and("process", processId))
                .map(Optional::orElseThrow);
    }

    /**
     * Creates a batch with a client-chosen id unless it exists. Only ids of the client range are accepted, so the
     * row can never collide with a generated one and the sequence is left alone.
     */
    public Uni<Integer> createWithId(long batchId, String type, Long processId) {
        if (!ChosenIds.choosable(batchId)) {
            throw new IllegalArgumentException(ChosenIds.outOfRange("batch id", batchId));
        }
        return update("""
                        INSERT INTO batch (batch_id, batch_type, process_id) OVERRIDING SYSTEM VALUE
                        VALUES (:id, :type, CAST(:process AS bigint))
                        ON CONFLICT (batch_id) DO NOTHING""",
                Params.of("id", batchId).and("type", type).and("process", processId));
    }

    /**
     * The applications a batch belongs to: those of the process it was registered for, of the run that produced it,
     * and of the steps it is (or was) queued for and the processes that enqueued it there. A caller that may read any
     * of them may see the batch; one that changes it needs the permission on all of them.
     */
    public Uni<List<Long>> applications(long batchId) {
        return values("SELECT DISTINCT app FROM (SELECT " + applicationOfProcess("x.pid") + " AS app FROM ("
                        + processesOf(":b") + ") x (pid)) apps WHERE app IS NOT NULL ORDER BY app", Long.class,
                Params.of("b", batchId));
    }

    public Uni<Optional<Batch>> find(long batchId) {
        return first("""
                        SELECT batch_id, source_instance_exec_id, batch_type, failed_at, created_at FROM batch
                        WHERE batch_id = :id""",
                Params.of("id", batchId),
                r -> new Batch(r.getLong("batch_id"), r.getLongOrNull("source_instance_exec_id"),
                        r.getString("batch_type"), r.getTime("failed_at"), r.getTime("created_at")));
    }

    public Uni<Integer> bindToRun(long batchId, long instanceExecId) {
        return update("UPDATE batch SET source_instance_exec_id = :ie, failed_at = NULL WHERE batch_id = :id",
                Params.of("ie", instanceExecId).and("id", batchId));
    }

    /** Marks a run's target batch failed, unless a retry has already taken it over (a late JobFailed). */
    public Uni<Integer> markFailed(long batchId, long failedRun) {
        return update("UPDATE batch SET failed_at = now() WHERE batch_id = :id AND source_instance_exec_id = :run",
                Params.of("id", batchId).and("run", failedRun));
    }

    /** Inserts a file; false when the same server, path and hash are already registered. */
    public Uni<Boolean> addFile(FileRow f) {
        return update("""
                        INSERT INTO file (batch_id, server_id, path, file_size, file_hash, creation_ts)
                        VALUES (:batchId, :serverId, :path, :fileSize, CAST(:fileHash AS text), :creationTs)
                        ON CONFLICT (server_id, path, COALESCE(file_hash, '')) DO NOTHING""",
                Params.of("batchId", f.batchId()).and("serverId", f.serverId()).and("path", f.path())
                        .and("fileSize", f.fileSize()).and("fileHash", f.fileHash()).and("creationTs", f.creationTs()))
                .map(inserted -> inserted == 1);
    }

    /** Files of the batches min..max that the caller may see (a batch is seen through any of its applications). */
    public Uni<List<FileRow>> files(long minBatchId, long maxBatchId, Visibility visibility) {
        return list("""
                        SELECT f.batch_id, f.server_id, f.path, f.file_size, f.file_hash, f.creation_ts FROM file f
                        WHERE f.batch_id BETWEEN :min AND :max AND EXISTS (SELECT 1 FROM ("""
                        + processesOf("f.batch_id") + ") x (pid) WHERE " + visible(applicationOfProcess("x.pid"))
                        + ") ORDER BY f.batch_id, f.file_id",
                Params.of("min", minBatchId).and("max", maxBatchId).and(visibility.params()),
                r -> new FileRow(r.getLong("batch_id"), r.getLong("server_id"), r.getString("path"),
                        r.getLong("file_size"), r.getString("file_hash"), r.getTime("creation_ts")));
    }

    /**
     * The processes related to the batch {@code batch} names (an SQL expression): the one it was registered for, the
     * parent whose run produced it, and the consuming steps and enqueuing processes of its queue and archive rows.
     */
    private static String processesOf(String batch) {
        return """
                SELECT process_id FROM batch WHERE batch_id = %1$s AND process_id IS NOT NULL
                UNION SELECT c.parent_process_id FROM batch b
                  JOIN run_claim c ON c.instance_exec_id = b.source_instance_exec_id WHERE b.batch_id = %1$s
                UNION SELECT process_id FROM consumption_queue WHERE source_batch_id = %1$s
                UNION SELECT source_process_id FROM consumption_queue WHERE source_batch_id = %1$s
                  AND source_process_id IS NOT NULL
                UNION SELECT process_id FROM archived_queue WHERE source_batch_id = %1$s
                UNION SELECT source_process_id FROM archived_queue WHERE source_batch_id = %1$s
                  AND source_process_id IS NOT NULL""".formatted(batch);
    }

    /** What a claim's answer says of each source batch: its files' paths (in file order) and the run that made it. */
    public record Sources(Map<Long, List<String>> paths, Map<Long, Long> producers) {
    }

    /**
     * The files and producers of these batches in one statement: a batch without files has no paths, and the
     * placeholder and file batches have no producer.
     */
    public Uni<Sources> sources(Collection<Long> batchIds) {
        if (batchIds.isEmpty()) {
            return Uni.createFrom().item(new Sources(Map.of(), Map.of()));
        }
        return list("""
                        SELECT b.batch_id, b.source_instance_exec_id, f.path FROM batch b
                        LEFT JOIN file f ON f.batch_id = b.batch_id
                        WHERE b.batch_id IN (:ids) ORDER BY f.file_id""",
                Params.of("ids", batchIds), r -> r).map(rows -> {
            Map<Long, List<String>> paths = new HashMap<>();
            Map<Long, Long> producers = new HashMap<>();
            for (Row r : rows) {
                long batch = r.getLong("batch_id");
                if (r.get("path") != null) {
                    paths.computeIfAbsent(batch, b -> new ArrayList<>()).add(r.getString("path"));
                }
                Long producer = r.getLongOrNull("source_instance_exec_id");
                if (producer != null) {
                    producers.put(batch, producer);
                }
            }
            return new Sources(paths, producers);
        });
    }
}
