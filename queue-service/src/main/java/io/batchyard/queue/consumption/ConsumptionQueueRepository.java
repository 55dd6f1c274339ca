package io.batchyard.queue.consumption;

import static io.batchyard.queue.access.Visibility.applicationOfProcess;
import static io.batchyard.queue.access.Visibility.visible;

import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.batchyard.queue.access.Visibility;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** SQL over the consumption queue and its archive; every method joins the caller's session. */
@ApplicationScoped
public class ConsumptionQueueRepository extends SqlRepository {

    private static final String COLUMNS = """
            queue_id, source_batch_id, target_batch_id, insert_ts, source_process_id, start_ts, end_ts, batch_state,
            batch_marking, process_id""";

    /** Rows of the given steps, in queue order. */
    public Uni<List<QueueRow>> rowsOf(Collection<Long> stepIds) {
        if (stepIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list("SELECT " + COLUMNS + " FROM consumption_queue WHERE process_id IN (:ids) ORDER BY queue_id",
                Params.of("ids", stepIds), ConsumptionQueueRepository::map);
    }

    /** Enqueues a batch for a step; empty when it was already queued there (the unique key makes this idempotent). */
    public Uni<Optional<Long>> enqueue(long sourceBatchId, Long sourceProcessId, String marking, long processId) {
        return value("""
                        INSERT INTO consumption_queue (source_batch_id, source_process_id, batch_state, batch_marking, process_id)
                        VALUES (:batch, CAST(:source AS bigint), 0, CAST(:marking AS text), :process)
                        ON CONFLICT (source_batch_id, process_id) DO NOTHING RETURNING queue_id""", Long.class,
                Params.of("batch", sourceBatchId).and("source", sourceProcessId).and("marking", marking)
                        .and("process", processId));
    }

    /**
     * Binds every chosen row of every step to the run's target in one statement; the rows in {@code accessed} are
     * also marked Accessed (2), the others keep their state.
     */
    public Uni<Integer> claim(Collection<Long> queueIds, Collection<Long> accessed, long targetBatchId) {
        if (queueIds.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return update("""
                        UPDATE consumption_queue SET target_batch_id = :target,
                          batch_state = CASE WHEN queue_id = ANY(CAST(:accessed AS bigint[])) THEN 2 ELSE batch_state END
                        WHERE queue_id = ANY(CAST(:ids AS bigint[]))""",
                Params.of("target", targetBatchId).and("accessed", accessed.toArray(Long[]::new))
                        .and("ids", queueIds.toArray(Long[]::new)));
    }

    /** Retry: rows of the run's target that are not Processed are accessed again; Processed rows stay done. */
    public Uni<Integer> reaccess(long targetBatchId) {
        return update("UPDATE consumption_queue SET batch_state = 2 WHERE target_batch_id = :target AND batch_state = 0",
                Params.of("target", targetBatchId));
    }

    /**
     * InitStep, HaltStep and TermStep: each step's rows of a run get their start time, or their end time and
     * Processed (there is no Failed batch state), in one statement for all the marks. Rows are matched by the run's
     * target batch, so a late event of an earlier run never touches a later run's rows. (A step that is not enqueued
     * has only its placeholder row, which the claim bound to the target too.) The marks name each step and run once.
     */
    public Uni<Integer> mark(List<StepMarks.Mark> marks) {
        if (marks.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return update("""
                        UPDATE consumption_queue q
                           SET start_ts = CASE WHEN m.started THEN now() ELSE q.start_ts END,
                               end_ts = CASE WHEN m.ended THEN now() ELSE q.end_ts END,
                               batch_state = CASE WHEN m.ended THEN 1 ELSE q.batch_state END
                          FROM unnest(CAST(:steps AS bigint[]), CAST(:targets AS bigint[]),
                                      CAST(:started AS boolean[]), CAST(:ended AS boolean[]))
                               AS m(step_id, target_batch_id, started, ended)
                         WHERE q.process_id = m.step_id AND q.target_batch_id = m.target_batch_id""",
                Params.of("steps", marks.stream().map(StepMarks.Mark::stepId).toArray(Long[]::new))
                        .and("targets", marks.stream().map(StepMarks.Mark::targetBatchId).toArray(Long[]::new))
                        .and("started", marks.stream().map(StepMarks.Mark::started).toArray(Boolean[]::new))
                        .and("ended", marks.stream().map(StepMarks.Mark::ended).toArray(Boolean[]::new)));
    }

    /**
     * Moves a completed run's rows to the archive: every row bound to its target batch, whatever its state (the
     * reference archived only Processed rows and could strand retried ones, and could take a later run's rows).
     * Idempotent: a second call finds nothing. One statement, so the rows are never in both tables or in neither.
     */
    public Uni<List<QueueRow>> archive(long targetBatchId) {
        return list("""
                        WITH moved AS (DELETE FROM consumption_queue WHERE target_batch_id = :target RETURNING *),
                        archived AS (INSERT INTO archived_queue (%1$s) SELECT %1$s FROM moved)
                        SELECT %1$s FROM moved ORDER BY queue_id""".formatted(COLUMNS),
                Params.of("target", targetBatchId), ConsumptionQueueRepository::map);
    }

    /** The optional "latest batch wins" policy: drop unclaimed rows a parent enqueued earlier. */
    public Uni<Integer> dropPending(long sourceProcessId) {
        return update("DELETE FROM consumption_queue WHERE source_process_id = :p AND target_batch_id IS NULL",
                Params.of("p", sourceProcessId));
    }

    /** Rows of the steps the caller may see (a step's application is its parent's), optionally of one step, state. */
    public Uni<List<QueueRow>> list(Long processId, Integer state, Visibility visibility, int limit, int offset) {
        return page("consumption_queue", Where.all().eq("process_id", processId).eq("batch_state", state),
                visibility, new Paging(limit, offset));
    }

    public Uni<Long> count(Long processId, Integer state, Visibility visibility) {
        return count("consumption_queue", Where.all().eq("process_id", processId).eq("batch_state", state),
                visibility);
    }

    public Uni<List<QueueRow>> archived(Long processId, Visibility visibility, int limit, int offset) {
        return page("archived_queue", Where.all().eq("process_id", processId), visibility, new Paging(limit, offset));
    }

    public Uni<Long> archivedCount(Long processId, Visibility visibility) {
        return count("archived_queue", Where.all().eq("process_id", processId), visibility);
    }

    /**
     * Queue and archive rows claimed by a target batch, each with the run that produced its source batch; only rows of
     * consuming steps the caller may see.
     */
    public Uni<List<BatchLineage>> lineage(long targetBatchId, Visibility visibility) {
        return list("""
                        SELECT q.queue_id, q.source_batch_id, q.source_process_id, b.source_instance_exec_id, q.process_id,
                          q.batch_marking, q.batch_state
                        FROM (SELECT queue_id, source_batch_id, source_process_id, process_id, batch_marking, batch_state
                                FROM consumption_queue WHERE target_batch_id = :t
                              UNION ALL
                              SELECT queue_id, source_batch_id, source_process_id, process_id, batch_marking, batch_state
                                FROM archived_queue WHERE target_batch_id = :t) q
                        LEFT JOIN batch b ON b.batch_id = q.source_batch_id
                        WHERE """ + visible(applicationOfProcess("q.process_id")) + " ORDER BY q.queue_id",
                Params.of("t", targetBatchId).and(visibility.params()),
                r -> new BatchLineage(r.getLong("queue_id"), r.getLong("source_batch_id"),
                        r.getLongOrNull("source_process_id"), r.getLongOrNull("source_instance_exec_id"),
                        r.getLong("process_id"), r.getString("batch_marking"), r.getInt("batch_state")));
    }

    /** Steps the caller may see that have the batch in their queue or archive. */
    public Uni<List<Long>> processesHolding(long batchId, Visibility visibility) {
        return values("""
                        SELECT process_id FROM (SELECT process_id FROM consumption_queue WHERE source_batch_id = :b
                          UNION SELECT process_id FROM archived_queue WHERE source_batch_id = :b) h
                        WHERE """ + visible(applicationOfProcess("h.process_id")), Long.class,
                Params.of("b", batchId).and(visibility.params()));
    }

    private static Uni<List<QueueRow>> page(String table, Where filters, Visibility visibility, Paging paging) {
        Where where = visibleStep(table, filters, visibility);
        return list("SELECT " + COLUMNS + " FROM " + table + where.sql() + " ORDER BY queue_id" + Paging.CLAUSE,
                Params.none().and(where.params()).and(paging.params()), ConsumptionQueueRepository::map);
    }

    private static Uni<Long> count(String table, Where filters, Visibility visibility) {
        Where where = visibleStep(table, filters, visibility);
        return single("SELECT count(*) FROM " + table + where.sql(), Long.class, where.params());
    }

    /** The filters, and that the consuming step of a row of {@code table} is one the caller may see. */
    private static Where visibleStep(String table, Where filters, Visibility visibility) {
        return filters.and(visible(applicationOfProcess(table + ".process_id")), visibility.params());
    }

    private static QueueRow map(Row r) {
        return new QueueRow(r.getLong("queue_id"), r.getLong("source_batch_id"), r.getLongOrNull("target_batch_id"),
                r.getTime("insert_ts"), r.getLongOrNull("source_process_id"), r.getTime("start_ts"),
                r.getTime("end_ts"), r.getInt("batch_state"), r.getString("batch_marking"), r.getLong("process_id"));
    }
}
