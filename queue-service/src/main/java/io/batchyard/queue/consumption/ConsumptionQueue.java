package io.batchyard.queue.consumption;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** SQL over the consumption queue and its archive; every method runs on the caller's handle. */
@ApplicationScoped
public class ConsumptionQueue {

    /** Rows of the given steps, in queue order. */
    public List<QueueRow> rowsOf(Handle h, List<Long> stepIds) {
        return h.createQuery("SELECT * FROM consumption_queue WHERE process_id = ANY(:ids) ORDER BY queue_id")
                .bindArray("ids", Long.class, stepIds).map((rs, ctx) -> QueueRow.map(rs)).list();
    }

    /** Enqueues a batch for a step; empty when it was already queued there (the unique key makes this idempotent). */
    public Optional<Long> enqueue(Handle tx, long sourceBatchId, Long sourceProcessId, String marking, long processId) {
        return tx.createQuery("""
                        INSERT INTO consumption_queue (source_batch_id, source_process_id, batch_state, batch_marking, process_id)
                        VALUES (:batch, :source, 0, :marking, :process)
                        ON CONFLICT (source_batch_id, process_id) DO NOTHING RETURNING queue_id""")
                .bind("batch", sourceBatchId).bind("source", sourceProcessId).bind("marking", marking)
                .bind("process", processId).mapTo(Long.class).findOne();
    }

    public void claim(Handle tx, List<Long> queueIds, long targetBatchId, boolean access) {
        tx.createUpdate("""
                        UPDATE consumption_queue SET target_batch_id = :target,
                          batch_state = CASE WHEN :access THEN 2 ELSE batch_state END
                        WHERE queue_id = ANY(:ids)""")
                .bind("target", targetBatchId).bind("access", access).bindArray("ids", Long.class, queueIds).execute();
    }

    /** Retry: rows of the run's target that are not Processed are accessed again; Processed rows stay done. */
    public void reaccess(Handle tx, long targetBatchId) {
        tx.createUpdate("UPDATE consumption_queue SET batch_state = 2 WHERE target_batch_id = :target AND batch_state = 0")
                .bind("target", targetBatchId).execute();
    }

    /**
     * InitStep: the step's rows of this run get their start time. Rows are matched by the run's target batch, so a
     * late event of an earlier run never touches a later run's rows. (A step that is not enqueued has only its
     * placeholder row, which the claim bound to the target too.)
     */
    public void markStarted(Handle tx, long stepId, long targetBatchId) {
        tx.createUpdate("UPDATE consumption_queue SET start_ts = now() WHERE process_id = :step AND target_batch_id = :target")
                .bind("step", stepId).bind("target", targetBatchId).execute();
    }

    /** HaltStep/TermStep: the step's rows of this run end as Processed (there is no Failed batch state). */
    public void markProcessed(Handle tx, long stepId, long targetBatchId) {
        tx.createUpdate("""
                        UPDATE consumption_queue SET end_ts = now(), batch_state = 1
                        WHERE process_id = :step AND target_batch_id = :target""")
                .bind("step", stepId).bind("target", targetBatchId).execute();
    }

    /**
     * Moves a completed run's rows to the archive: every row bound to its target batch, whatever its state (the
     * reference archived only Processed rows and could strand retried ones, and could take a later run's rows).
     * Idempotent: a second call finds nothing.
     */
    public List<QueueRow> archive(Handle tx, long targetBatchId) {
        List<QueueRow> moved = tx.createQuery("DELETE FROM consumption_queue WHERE target_batch_id = :target RETURNING *")
                .bind("target", targetBatchId)
                .map((rs, ctx) -> QueueRow.map(rs)).list();
        for (QueueRow r : moved) {
            tx.createUpdate("""
                            INSERT INTO archived_queue (queue_id, source_batch_id, target_batch_id, insert_ts,
                              source_process_id, start_ts, end_ts, batch_state, batch_marking, process_id)
                            VALUES (:queueId, :sourceBatchId, :targetBatchId, :insertTs, :sourceProcessId, :startTs,
                              :endTs, :batchState, :batchMarking, :processId)""")
                    .bindMethods(r).execute();
        }
        return moved;
    }

    /** The optional "latest batch wins" policy: drop unclaimed rows a parent enqueued earlier. */
    public int dropPending(Handle tx, long sourceProcessId) {
        return tx.createUpdate("DELETE FROM consumption_queue WHERE source_process_id = :p AND target_batch_id IS NULL")
                .bind("p", sourceProcessId).execute();
    }

    public List<QueueRow> list(Handle h, Long processId, Integer state, int limit, int offset) {
        return h.createQuery("""
                        SELECT * FROM consumption_queue WHERE (:p IS NULL OR process_id = :p)
                          AND (:s IS NULL OR batch_state = :s) ORDER BY queue_id LIMIT :limit OFFSET :offset""")
                .bindByType("p", processId, Long.class).bindByType("s", state, Integer.class)
                .bind("limit", limit).bind("offset", offset).map((rs, ctx) -> QueueRow.map(rs)).list();
    }

    public long count(Handle h, Long processId, Integer state) {
        return h.createQuery("""
                        SELECT count(*) FROM consumption_queue WHERE (:p IS NULL OR process_id = :p)
                          AND (:s IS NULL OR batch_state = :s)""")
                .bindByType("p", processId, Long.class).bindByType("s", state, Integer.class).mapTo(Long.class).one();
    }

    public List<QueueRow> archived(Handle h, Long processId, int limit, int offset) {
        return h.createQuery("""
                        SELECT * FROM archived_queue WHERE (:p IS NULL OR process_id = :p)
                        ORDER BY queue_id LIMIT :limit OFFSET :offset""")
                .bindByType("p", processId, Long.class).bind("limit", limit).bind("offset", offset)
                .map((rs, ctx) -> QueueRow.map(rs)).list();
    }

    public long archivedCount(Handle h, Long processId) {
        return h.createQuery("SELECT count(*) FROM archived_queue WHERE (:p IS NULL OR process_id = :p)")
                .bindByType("p", processId, Long.class).mapTo(Long.class).one();
    }

    /** Queue and archive rows claimed by a target batch (lineage by batch). */
    public List<QueueRow> claimedBy(Handle h, long targetBatchId) {
        return h.createQuery("""
                        SELECT queue_id, source_batch_id, target_batch_id, insert_ts, source_process_id, start_ts, end_ts,
                          batch_state, batch_marking, process_id FROM consumption_queue WHERE target_batch_id = :t
                        UNION ALL
                        SELECT queue_id, source_batch_id, target_batch_id, insert_ts, source_process_id, start_ts, end_ts,
                          batch_state, batch_marking, process_id FROM archived_queue WHERE target_batch_id = :t
                        ORDER BY queue_id""")
                .bind("t", targetBatchId).map((rs, ctx) -> QueueRow.map(rs)).list();
    }

    /** Steps that have the batch in their queue or archive. */
    public List<Long> processesHolding(Handle h, long batchId) {
        return h.createQuery("""
                        SELECT process_id FROM consumption_queue WHERE source_batch_id = :b
                        UNION SELECT process_id FROM archived_queue WHERE source_batch_id = :b""")
                .bind("b", batchId).mapTo(Long.class).list();
    }
}
