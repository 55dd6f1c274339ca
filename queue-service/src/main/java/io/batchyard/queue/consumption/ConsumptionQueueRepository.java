package io.batchyard.queue.consumption;

import io.batchyard.persistence.Columns;

import static io.batchyard.persistence.Columns.longOrNull;
import static io.batchyard.persistence.Columns.time;
import static io.batchyard.persistence.Columns.toInt;
import static io.batchyard.persistence.Columns.toLong;

import io.batchyard.queue.NativeRepository;
import io.batchyard.queue.Visibility;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** SQL over the consumption queue and its archive; every method joins the caller's session. */
@ApplicationScoped
public class ConsumptionQueueRepository extends NativeRepository {

    private static final String COLUMNS = """
            queue_id, source_batch_id, target_batch_id, insert_ts, source_process_id, start_ts, end_ts, batch_state,
            batch_marking, process_id""";

    /** Rows of the given steps, in queue order. */
    public Uni<List<QueueRow>> rowsOf(Collection<Long> stepIds) {
        if (stepIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return rows("SELECT " + COLUMNS + " FROM consumption_queue WHERE process_id IN (:ids) ORDER BY queue_id",
                q -> q.setParameter("ids", stepIds), ConsumptionQueueRepository::row);
    }

    /** Enqueues a batch for a step; empty when it was already queued there (the unique key makes this idempotent). */
    public Uni<Optional<Long>> enqueue(long sourceBatchId, Long sourceProcessId, String marking, long processId) {
        return value("""
                        INSERT INTO consumption_queue (source_batch_id, source_process_id, batch_state, batch_marking, process_id)
                        VALUES (:batch, CAST(:source AS bigint), 0, CAST(:marking AS text), :process)
                        ON CONFLICT (source_batch_id, process_id) DO NOTHING RETURNING queue_id""", Long.class,
                q -> q.setParameter("batch", sourceBatchId).setParameter("source", sourceProcessId)
                        .setParameter("marking", marking).setParameter("process", processId));
    }

    public Uni<Integer> claim(List<Long> queueIds, long targetBatchId, boolean access) {
        return update("""
                        UPDATE consumption_queue SET target_batch_id = :target,
                          batch_state = CASE WHEN :access THEN 2 ELSE batch_state END
                        WHERE queue_id IN (:ids)""",
                q -> q.setParameter("target", targetBatchId).setParameter("access", access).setParameter("ids", queueIds));
    }

    /** Retry: rows of the run's target that are not Processed are accessed again; Processed rows stay done. */
    public Uni<Integer> reaccess(long targetBatchId) {
        return update("UPDATE consumption_queue SET batch_state = 2 WHERE target_batch_id = :target AND batch_state = 0",
                q -> q.setParameter("target", targetBatchId));
    }

    /**
     * InitStep: the step's rows of this run get their start time. Rows are matched by the run's target batch, so a
     * late event of an earlier run never touches a later run's rows. (A step that is not enqueued has only its
     * placeholder row, which the claim bound to the target too.)
     */
    public Uni<Integer> markStarted(long stepId, long targetBatchId) {
        return update("UPDATE consumption_queue SET start_ts = now() WHERE process_id = :step AND target_batch_id = :target",
                q -> q.setParameter("step", stepId).setParameter("target", targetBatchId));
    }

    /** HaltStep/TermStep: the step's rows of this run end as Processed (there is no Failed batch state). */
    public Uni<Integer> markProcessed(long stepId, long targetBatchId) {
        return update("""
                        UPDATE consumption_queue SET end_ts = now(), batch_state = 1
                        WHERE process_id = :step AND target_batch_id = :target""",
                q -> q.setParameter("step", stepId).setParameter("target", targetBatchId));
    }

    /**
     * Moves a completed run's rows to the archive: every row bound to its target batch, whatever its state (the
     * reference archived only Processed rows and could strand retried ones, and could take a later run's rows).
     * Idempotent: a second call finds nothing. One statement, so the rows are never in both tables or in neither.
     */
    public Uni<List<QueueRow>> archive(long targetBatchId) {
        return rows("""
                        WITH moved AS (DELETE FROM consumption_queue WHERE target_batch_id = :target RETURNING *),
                        archived AS (INSERT INTO archived_queue (%1$s) SELECT %1$s FROM moved)
                        SELECT %1$s FROM moved ORDER BY queue_id""".formatted(COLUMNS),
                q -> q.setParameter("target", targetBatchId), ConsumptionQueueRepository::row);
    }

    /** The optional "latest batch wins" policy: drop unclaimed rows a parent enqueued earlier. */
    public Uni<Integer> dropPending(long sourceProcessId) {
        return update("DELETE FROM consumption_queue WHERE source_process_id = :p AND target_batch_id IS NULL",
                q -> q.setParameter("p", sourceProcessId));
    }

    /** Rows of the steps the caller may see (a step's application is its parent's), optionally of one step, state. */
    public Uni<List<QueueRow>> list(Long processId, Integer state, Visibility visibility, int limit, int offset) {
        return page("consumption_queue", Filter.of("process_id", processId, "batch_state", state), visibility, limit,
                offset);
    }

    public Uni<Long> count(Long processId, Integer state, Visibility visibility) {
        return count("consumption_queue", Filter.of("process_id", processId, "batch_state", state), visibility);
    }

    public Uni<List<QueueRow>> archived(Long processId, Visibility visibility, int limit, int offset) {
        return page("archived_queue", Filter.of("process_id", processId), visibility, limit, offset);
    }

    public Uni<Long> archivedCount(Long processId, Visibility visibility) {
        return count("archived_queue", Filter.of("process_id", processId), visibility);
    }

    /**
     * Queue and archive rows claimed by a target batch, each with the run that produced its source batch; only rows of
     * consuming steps the caller may see.
     */
    public Uni<List<BatchLineage>> lineage(long targetBatchId, Visibility visibility) {
        return rows("""
                        SELECT q.queue_id, q.source_batch_id, q.source_process_id, b.source_instance_exec_id, q.process_id,
                          q.batch_marking, q.batch_state
                        FROM (SELECT queue_id, source_batch_id, source_process_id, process_id, batch_marking, batch_state
                                FROM consumption_queue WHERE target_batch_id = :t
                              UNION ALL
                              SELECT queue_id, source_batch_id, source_process_id, process_id, batch_marking, batch_state
                                FROM archived_queue WHERE target_batch_id = :t) q
                        LEFT JOIN batch b ON b.batch_id = q.source_batch_id
                        WHERE """ + visible(applicationOfProcess("q.process_id")) + " ORDER BY q.queue_id",
                q -> bind(q, visibility).setParameter("t", targetBatchId),
                r -> new BatchLineage(toLong(r[0]), toLong(r[1]), longOrNull(r[2]), longOrNull(r[3]), toLong(r[4]),
                        (String) r[5], toInt(r[6])));
    }

    /** Steps the caller may see that have the batch in their queue or archive. */
    public Uni<List<Long>> processesHolding(long batchId, Visibility visibility) {
        return values("""
                        SELECT process_id FROM (SELECT process_id FROM consumption_queue WHERE source_batch_id = :b
                          UNION SELECT process_id FROM archived_queue WHERE source_batch_id = :b) h
                        WHERE """ + visible(applicationOfProcess("h.process_id")), Long.class,
                q -> bind(q, visibility).setParameter("b", batchId));
    }

    private static Uni<List<QueueRow>> page(String table, Filter filter, Visibility visibility, int limit, int offset) {
        return rows("SELECT " + COLUMNS + " FROM " + table + filter.where(visibleStep(table))
                        + " ORDER BY queue_id LIMIT :limit OFFSET :offset",
                q -> bind(bind(q, filter), visibility).setParameter("limit", limit).setParameter("offset", offset),
                ConsumptionQueueRepository::row);
    }

    private static Uni<Long> count(String table, Filter filter, Visibility visibility) {
        return value("SELECT count(*) FROM " + table + filter.where(visibleStep(table)), Long.class,
                q -> bind(bind(q, filter), visibility)).map(Optional::orElseThrow);
    }

    /** The rows of {@code table} whose consuming step the caller may see. */
    private static String visibleStep(String table) {
        return visible(applicationOfProcess(table + ".process_id"));
    }

    private static QueueRow row(Object[] r) {
        return new QueueRow(toLong(r[0]), toLong(r[1]), longOrNull(r[2]), time(r[3]), longOrNull(r[4]), time(r[5]),
                time(r[6]), toInt(r[7]), (String) r[8], toLong(r[9]));
    }
}
