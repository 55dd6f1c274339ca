package io.batchyard.lineage.process;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** Reads of the process-lineage projection (spec 3.8 "lineage by batch", and the process graph). */
@ApplicationScoped
public class ProcessLineageStore {

    public record Run(long instanceExecId, long processId, Long targetBatchId, String batchMarking, String state,
                      OffsetDateTime startedAt, OffsetDateTime endedAt) {
    }

    public record Enqueue(long queueId, long sourceBatchId, Long sourceProcessId, long consumerProcessId,
                          String batchMarking, OffsetDateTime enqueuedAt) {
    }

    /**
     * {@code fromProcessId} produced batch {@code batchId} (in run {@code fromRun}, if known) and
     * {@code toProcessId} consumed it (in run {@code toRun}), or, when {@code consumed} is false, it is only queued
     * for {@code toProcessId}'s step {@code viaStepId}.
     */
    public record ProcessEdge(Long fromProcessId, long toProcessId, Long viaStepId, long batchId, Long fromRun,
                              Long toRun, boolean consumed) {
    }

    private static final String RUN = """
            SELECT instance_exec_id, process_id, target_batch_id, batch_marking, state, started_at, ended_at
              FROM process_run""";

    /**
     * Every process-to-process hand-over. Consumed: a run archived the batch (BatchesArchived). Enqueued: the batch
     * waits on a step's queue and no run of that step's parent has consumed it yet.
     */
    private static final String EDGES = """
            WITH edges AS (
              SELECT COALESCE(pr.process_id, (SELECT e.source_process_id FROM batch_enqueue e
                                               WHERE e.source_batch_id = bc.source_batch_id
                                               ORDER BY e.queue_id LIMIT 1)) AS from_process,
                     bc.parent_process_id AS to_process, CAST(NULL AS BIGINT) AS via_step,
                     bc.source_batch_id AS batch_id, pr.instance_exec_id AS from_run,
                     cr.instance_exec_id AS to_run, TRUE AS consumed
                FROM batch_consumption bc
                LEFT JOIN process_run pr ON pr.target_batch_id = bc.source_batch_id
                LEFT JOIN process_run cr ON cr.target_batch_id = bc.target_batch_id
                                        AND cr.process_id = bc.parent_process_id
              UNION ALL
              SELECT COALESCE(e.source_process_id, pr.process_id), COALESCE(s.parent_process_id, e.consumer_process_id),
                     e.consumer_process_id, e.source_batch_id, pr.instance_exec_id, CAST(NULL AS BIGINT), FALSE
                FROM batch_enqueue e
                LEFT JOIN process_run pr ON pr.target_batch_id = e.source_batch_id
                LEFT JOIN LATERAL (SELECT parent_process_id FROM step_run
                                    WHERE sub_process_id = e.consumer_process_id LIMIT 1) s ON TRUE
               WHERE NOT EXISTS (SELECT 1 FROM batch_consumption c
                                  WHERE c.source_batch_id = e.source_batch_id
                                    AND c.parent_process_id = COALESCE(s.parent_process_id, e.consumer_process_id))
            )
            SELECT DISTINCT from_process, to_process, via_step, batch_id, from_run, to_run, consumed FROM edges""";

    public Optional<Run> run(Handle h, long instanceExecId) {
        return h.createQuery(RUN + " WHERE instance_exec_id = :id").bind("id", instanceExecId)
                .map((rs, ctx) -> run(rs)).findOne();
    }

    /** The run whose target batch this is: its producer. */
    public Optional<Run> producerOf(Handle h, long batchId) {
        return h.createQuery(RUN + " WHERE target_batch_id = :b ORDER BY started_at DESC NULLS LAST LIMIT 1")
                .bind("b", batchId).map((rs, ctx) -> run(rs)).findOne();
    }

    public List<Long> sourcesOf(Handle h, long targetBatchId) {
        return h.createQuery("SELECT source_batch_id FROM batch_consumption WHERE target_batch_id = :b ORDER BY 1")
                .bind("b", targetBatchId).mapTo(Long.class).list();
    }

    public List<Run> consumersOf(Handle h, long batchId) {
        return h.createQuery(RUN + """
                         r WHERE EXISTS (SELECT 1 FROM batch_consumption c WHERE c.source_batch_id = :b
                                            AND c.target_batch_id = r.target_batch_id
                                            AND c.parent_process_id = r.process_id)
                        ORDER BY instance_exec_id""")
                .bind("b", batchId).map((rs, ctx) -> run(rs)).list();
    }

    public List<Enqueue> enqueues(Handle h, long batchId) {
        return h.createQuery("""
                        SELECT queue_id, source_batch_id, source_process_id, consumer_process_id, batch_marking, enqueued_at
                          FROM batch_enqueue WHERE source_batch_id = :b ORDER BY queue_id""")
                .bind("b", batchId)
                .map((rs, ctx) -> new Enqueue(rs.getLong(1), rs.getLong(2), nullableLong(rs, 3), rs.getLong(4),
                        rs.getString(5), rs.getObject(6, OffsetDateTime.class)))
                .list();
    }

    public List<Run> runsOf(Handle h, long processId, int limit) {
        return h.createQuery(RUN + " WHERE process_id = :p ORDER BY instance_exec_id DESC LIMIT :limit")
                .bind("p", processId).bind("limit", limit).map((rs, ctx) -> run(rs)).list();
    }

    public boolean knows(Handle h, long processId) {
        return h.createQuery("""
                        SELECT EXISTS (SELECT 1 FROM process_run WHERE process_id = :p)
                            OR EXISTS (SELECT 1 FROM batch_enqueue WHERE consumer_process_id = :p OR source_process_id = :p)
                            OR EXISTS (SELECT 1 FROM batch_consumption WHERE parent_process_id = :p)
                            OR EXISTS (SELECT 1 FROM step_run WHERE sub_process_id = :p OR parent_process_id = :p)""")
                .bind("p", processId).mapTo(Boolean.class).one();
    }

    /** Hand-overs into ({@code upstream}) or out of a process. */
    public List<ProcessEdge> edges(Handle h, long processId, boolean upstream) {
        String where = upstream ? " WHERE to_process = :p OR via_step = :p" : " WHERE from_process = :p";
        return h.createQuery("SELECT * FROM (" + EDGES + ") x" + where + " ORDER BY batch_id, to_process")
                .bind("p", processId)
                .map((rs, ctx) -> new ProcessEdge(nullableLong(rs, 1), rs.getLong(2), nullableLong(rs, 3), rs.getLong(4),
                        nullableLong(rs, 5), nullableLong(rs, 6), rs.getBoolean(7)))
                .list();
    }

    private static Run run(ResultSet rs) throws SQLException {
        return new Run(rs.getLong(1), rs.getLong(2), nullableLong(rs, 3), rs.getString(4), rs.getString(5),
                rs.getObject(6, OffsetDateTime.class), rs.getObject(7, OffsetDateTime.class));
    }

    private static Long nullableLong(ResultSet rs, int column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }
}
