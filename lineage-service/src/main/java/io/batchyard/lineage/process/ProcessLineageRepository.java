package io.batchyard.lineage.process;

import io.batchyard.persistence.Columns;
import io.batchyard.lineage.process.ProcessLineage.Enqueue;
import io.batchyard.lineage.process.ProcessLineage.ProcessEdge;
import io.batchyard.lineage.process.ProcessLineage.Run;
import io.batchyard.lineage.process.ProcessLineage.StepRun;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;

/**
 * The process-lineage projection ("lineage by batch", and the process graph): its upserts from run and batch events,
 * and its reads. No foreign keys link these tables: events of different topics arrive in any order.
 */
@ApplicationScoped
public class ProcessLineageRepository {

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

    public Uni<Optional<Run>> run(long instanceExecId) {
        return runs(RUN + " WHERE instance_exec_id = :id", "id", instanceExecId).map(ProcessLineageRepository::first);
    }

    /** The run whose target batch this is: its producer. */
    public Uni<Optional<Run>> producerOf(long batchId) {
        return runs(RUN + " WHERE target_batch_id = :b ORDER BY started_at DESC NULLS LAST LIMIT 1", "b", batchId)
                .map(ProcessLineageRepository::first);
    }

    public Uni<List<Long>> sourcesOf(long targetBatchId) {
        return Panache.getSession().chain(s -> s.createNativeQuery(
                        "SELECT source_batch_id FROM batch_consumption WHERE target_batch_id = :b ORDER BY 1", Long.class)
                .setParameter("b", targetBatchId)
                .getResultList());
    }

    public Uni<List<Run>> consumersOf(long batchId) {
        return runs(RUN + """
                 r WHERE EXISTS (SELECT 1 FROM batch_consumption c WHERE c.source_batch_id = :b
                                    AND c.target_batch_id = r.target_batch_id
                                    AND c.parent_process_id = r.process_id)
                ORDER BY instance_exec_id""", "b", batchId);
    }

    public Uni<List<Enqueue>> enqueues(long batchId) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        SELECT queue_id, source_batch_id, source_process_id, consumer_process_id, batch_marking, enqueued_at
                          FROM batch_enqueue WHERE source_batch_id = :b ORDER BY queue_id""", Object[].class)
                .setParameter("b", batchId)
                .getResultList()
                .map(rows -> rows.stream().map(r -> new Enqueue(Columns.toLong(r[0]), Columns.toLong(r[1]),
                        Columns.longOrNull(r[2]), Columns.toLong(r[3]), (String) r[4], Columns.time(r[5]))).toList()));
    }

    public Uni<List<Run>> runsOf(long processId, int limit) {
        return Panache.getSession().chain(s -> s.createNativeQuery(
                        RUN + " WHERE process_id = :p ORDER BY instance_exec_id DESC LIMIT :limit", Object[].class)
                .setParameter("p", processId).setParameter("limit", limit)
                .getResultList()
                .map(rows -> rows.stream().map(ProcessLineageRepository::run).toList()));
    }

    public Uni<Boolean> knows(long processId) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        SELECT EXISTS (SELECT 1 FROM process_run WHERE process_id = :p)
                            OR EXISTS (SELECT 1 FROM batch_enqueue WHERE consumer_process_id = :p OR source_process_id = :p)
                            OR EXISTS (SELECT 1 FROM batch_consumption WHERE parent_process_id = :p)
                            OR EXISTS (SELECT 1 FROM step_run WHERE sub_process_id = :p OR parent_process_id = :p)""",
                        Boolean.class)
                .setParameter("p", processId)
                .getSingleResult());
    }

    /** Hand-overs into ({@code upstream}) or out of a process. */
    public Uni<List<ProcessEdge>> edges(long processId, boolean upstream) {
        String where = upstream ? " WHERE to_process = :p OR via_step = :p" : " WHERE from_process = :p";
        return Panache.getSession().chain(s -> s.createNativeQuery(
                        "SELECT * FROM (" + EDGES + ") x" + where + " ORDER BY batch_id, to_process", Object[].class)
                .setParameter("p", processId)
                .getResultList()
                .map(rows -> rows.stream().map(r -> new ProcessEdge(Columns.longOrNull(r[0]), Columns.toLong(r[1]),
                        Columns.longOrNull(r[2]), Columns.toLong(r[3]), Columns.longOrNull(r[4]), Columns.longOrNull(r[5]),
                        Columns.toBoolean(r[6]))).toList()));
    }

    /**
     * Upserts a run. A retried run (JobStarted again after JobFailed) is RUNNING again; the end time of an earlier
     * attempt is cleared, the first start kept.
     */
    public Uni<Void> upsertRun(long run, long process, Long batch, String marking, String state, OffsetDateTime started,
                               OffsetDateTime ended) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO process_run (instance_exec_id, process_id, target_batch_id, batch_marking, state,
                            started_at, ended_at)
                        VALUES (:run, :process, :batch, :marking, :state, :started, :ended)
                        ON CONFLICT (instance_exec_id) DO UPDATE
                        SET target_batch_id = COALESCE(EXCLUDED.target_batch_id, process_run.target_batch_id),
                            batch_marking = COALESCE(EXCLUDED.batch_marking, process_run.batch_marking),
                            state = EXCLUDED.state,
                            started_at = COALESCE(process_run.started_at, EXCLUDED.started_at),
                            ended_at = CASE WHEN EXCLUDED.state = 'RUNNING' THEN NULL ELSE EXCLUDED.ended_at END""")
                .setParameter("run", run).setParameter("process", process).setParameter("batch", batch)
                .setParameter("marking", marking).setParameter("state", state).setParameter("started", started)
                .setParameter("ended", ended)
                .executeUpdate()
                .replaceWithVoid());
    }

    /**
     * Records a step's start or end. An end that arrives without its start still makes the row (started then); a
     * start after the end keeps the end.
     */
    public Uni<Void> upsertStepRun(long sub, long subProcess, long parent, long parentRun, String state,
                                   OffsetDateTime at) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO step_run (sub_instance_exec_id, sub_process_id, parent_process_id,
                            parent_instance_exec_id, started_at, state, ended_at)
                        VALUES (:sub, :subProcess, :parent, :parentRun, :at, :state, :ended)
                        ON CONFLICT (sub_instance_exec_id) DO UPDATE
                        SET state = CASE WHEN EXCLUDED.state = 'RUNNING' THEN step_run.state ELSE EXCLUDED.state END,
                            ended_at = CASE WHEN EXCLUDED.state = 'RUNNING' THEN step_run.ended_at
                                            ELSE GREATEST(EXCLUDED.ended_at, step_run.started_at) END""")
                .setParameter("sub", sub).setParameter("subProcess", subProcess).setParameter("parent", parent)
                .setParameter("parentRun", parentRun).setParameter("at", at).setParameter("state", state)
                .setParameter("ended", "RUNNING".equals(state) ? null : at)
                .executeUpdate()
                .replaceWithVoid());
    }

    public Uni<Optional<StepRun>> stepRun(long sub) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        SELECT sub_instance_exec_id, sub_process_id, parent_process_id, parent_instance_exec_id, state,
                               started_at, ended_at
                          FROM step_run WHERE sub_instance_exec_id = :sub""", Object[].class)
                .setParameter("sub", sub)
                .getResultList()
                .map(rows -> rows.stream().findFirst().map(r -> new StepRun(Columns.toLong(r[0]), Columns.toLong(r[1]),
                        Columns.toLong(r[2]), Columns.toLong(r[3]), (String) r[4], Columns.time(r[5]),
                        Columns.time(r[6])))));
    }

    public Uni<Void> insertEnqueue(long queue, long batch, Long source, long consumer, String marking,
                                   OffsetDateTime at) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO batch_enqueue (queue_id, source_batch_id, source_process_id,
                            consumer_process_id, batch_marking, enqueued_at)
                        VALUES (:queue, :batch, :source, :consumer, :marking, :at) ON CONFLICT DO NOTHING""")
                .setParameter("queue", queue).setParameter("batch", batch).setParameter("source", source)
                .setParameter("consumer", consumer).setParameter("marking", marking).setParameter("at", at)
                .executeUpdate()
                .replaceWithVoid());
    }

    public Uni<Void> insertConsumption(long parent, long target, long source, OffsetDateTime at) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO batch_consumption (parent_process_id, target_batch_id, source_batch_id, archived_at)
                        VALUES (:parent, :target, :source, :at) ON CONFLICT DO NOTHING""")
                .setParameter("parent", parent).setParameter("target", target).setParameter("source", source)
                .setParameter("at", at)
                .executeUpdate()
                .replaceWithVoid());
    }

    private static Uni<List<Run>> runs(String sql, String name, long value) {
        return Panache.getSession().chain(s -> s.createNativeQuery(sql, Object[].class)
                .setParameter(name, value)
                .getResultList()
                .map(rows -> rows.stream().map(ProcessLineageRepository::run).toList()));
    }

    private static Optional<Run> first(List<Run> runs) {
        return runs.stream().findFirst();
    }

    private static Run run(Object[] r) {
        return new Run(Columns.toLong(r[0]), Columns.toLong(r[1]), Columns.longOrNull(r[2]), (String) r[3],
                (String) r[4], Columns.time(r[5]), Columns.time(r[6]));
    }
}
