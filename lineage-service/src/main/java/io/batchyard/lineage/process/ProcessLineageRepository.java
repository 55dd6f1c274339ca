package io.batchyard.lineage.process;

import io.batchyard.lineage.process.ProcessLineage.Enqueue;
import io.batchyard.lineage.process.ProcessLineage.ProcessEdge;
import io.batchyard.lineage.process.ProcessLineage.Run;
import io.batchyard.lineage.process.ProcessLineage.StepRun;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
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
public class ProcessLineageRepository extends SqlRepository {

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
        return first(RUN + " WHERE instance_exec_id = :id", Params.of("id", instanceExecId),
                ProcessLineageRepository::run);
    }

    /** The run whose target batch this is: its producer. */
    public Uni<Optional<Run>> producerOf(long batchId) {
        return first(RUN + " WHERE target_batch_id = :b ORDER BY started_at DESC NULLS LAST LIMIT 1",
                Params.of("b", batchId), ProcessLineageRepository::run);
    }

    public Uni<List<Long>> sourcesOf(long targetBatchId) {
        return values("SELECT source_batch_id FROM batch_consumption WHERE target_batch_id = :b ORDER BY 1",
                Long.class, Params.of("b", targetBatchId));
    }

    public Uni<List<Run>> consumersOf(long batchId) {
        return list(RUN + """
                 r WHERE EXISTS (SELECT 1 FROM batch_consumption c WHERE c.source_batch_id = :b
                                    AND c.target_batch_id = r.target_batch_id
                                    AND c.parent_process_id = r.process_id)
                ORDER BY instance_exec_id""", Params.of("b", batchId), ProcessLineageRepository::run);
    }

    public Uni<List<Enqueue>> enqueues(long batchId) {
        return list("""
                        SELECT queue_id, source_batch_id, source_process_id, consumer_process_id, batch_marking, enqueued_at
                          FROM batch_enqueue WHERE source_batch_id = :b ORDER BY queue_id""", Params.of("b", batchId),
                ProcessLineageRepository::enqueue);
    }

    public Uni<List<Run>> runsOf(long processId, int limit) {
        return list(RUN + " WHERE process_id = :p ORDER BY instance_exec_id DESC LIMIT :limit",
                Params.of("p", processId).and("limit", limit), ProcessLineageRepository::run);
    }

    public Uni<Boolean> knows(long processId) {
        return single("""
                        SELECT EXISTS (SELECT 1 FROM process_run WHERE process_id = :p)
                            OR EXISTS (SELECT 1 FROM batch_enqueue WHERE consumer_process_id = :p OR source_process_id = :p)
                            OR EXISTS (SELECT 1 FROM batch_consumption WHERE parent_process_id = :p)
                            OR EXISTS (SELECT 1 FROM step_run WHERE sub_process_id = :p OR parent_process_id = :p)""",
                Boolean.class, Params.of("p", processId));
    }

    /** Hand-overs into ({@code upstream}) or out of a process. */
    public Uni<List<ProcessEdge>> edges(long processId, boolean upstream) {
        String where = upstream ? " WHERE to_process = :p OR via_step = :p" : " WHERE from_process = :p";
        return list("SELECT * FROM (" + EDGES + ") x" + where + " ORDER BY batch_id, to_process",
                Params.of("p", processId), ProcessLineageRepository::edge);
    }

    /**
     * Upserts a run. A retried run (JobStarted again after JobFailed) is RUNNING again; the end time of an earlier
     * attempt is cleared, the first start kept.
     */
    public Uni<Void> upsertRun(long run, long process, Long batch, String marking, String state, OffsetDateTime started,
                               OffsetDateTime ended) {
        return update("""
                        INSERT INTO process_run (instance_exec_id, process_id, target_batch_id, batch_marking, state,
                            started_at, ended_at)
                        VALUES (:run, :process, :batch, :marking, :state, :started, :ended)
                        ON CONFLICT (instance_exec_id) DO UPDATE
                        SET target_batch_id = COALESCE(EXCLUDED.target_batch_id, process_run.target_batch_id),
                            batch_marking = COALESCE(EXCLUDED.batch_marking, process_run.batch_marking),
                            state = EXCLUDED.state,
                            started_at = COALESCE(process_run.started_at, EXCLUDED.started_at),
                            ended_at = CASE WHEN EXCLUDED.state = 'RUNNING' THEN NULL ELSE EXCLUDED.ended_at END""",
                Params.of("run", run).and("process", process).and("batch", batch).and("marking", marking)
                        .and("state", state).and("started", started).and("ended", ended))
                .replaceWithVoid();
    }

    /**
     * Records a step's start or end. An end that arrives without its start still makes the row (started then); a
     * start after the end keeps the end.
     */
    public Uni<Void> upsertStepRun(long sub, long subProcess, long parent, long parentRun, String state,
                                   OffsetDateTime at) {
        return update("""
                        INSERT INTO step_run (sub_instance_exec_id, sub_process_id, parent_process_id,
                            parent_instance_exec_id, started_at, state, ended_at)
                        VALUES (:sub, :subProcess, :parent, :parentRun, :at, :state, :ended)
                        ON CONFLICT (sub_instance_exec_id) DO UPDATE
                        SET state = CASE WHEN EXCLUDED.state = 'RUNNING' THEN step_run.state ELSE EXCLUDED.state END,
                            ended_at = CASE WHEN EXCLUDED.state = 'RUNNING' THEN step_run.ended_at
                                            ELSE GREATEST(EXCLUDED.ended_at, step_run.started_at) END""",
                Params.of("sub", sub).and("subProcess", subProcess).and("parent", parent).and("parentRun", parentRun)
                        .and("at", at).and("state", state).and("ended", "RUNNING".equals(state) ? null : at))
                .replaceWithVoid();
    }

    public Uni<Optional<StepRun>> stepRun(long sub) {
        return first("""
                        SELECT sub_instance_exec_id, sub_process_id, parent_process_id, parent_instance_exec_id, state,
                               started_at, ended_at
                          FROM step_run WHERE sub_instance_exec_id = :sub""", Params.of("sub", sub),
                ProcessLineageRepository::stepRun);
    }

    public Uni<Void> insertEnqueue(long queue, long batch, Long source, long consumer, String marking,
                                   OffsetDateTime at) {
        return update("""
                        INSERT INTO batch_enqueue (queue_id, source_batch_id, source_process_id,
                            consumer_process_id, batch_marking, enqueued_at)
                        VALUES (:queue, :batch, :source, :consumer, :marking, :at) ON CONFLICT DO NOTHING""",
                Params.of("queue", queue).and("batch", batch).and("source", source).and("consumer", consumer)
                        .and("marking", marking).and("at", at))
                .replaceWithVoid();
    }

    public Uni<Void> insertConsumption(long parent, long target, long source, OffsetDateTime at) {
        return update("""
                        INSERT INTO batch_consumption (parent_process_id, target_batch_id, source_batch_id, archived_at)
                        VALUES (:parent, :target, :source, :at) ON CONFLICT DO NOTHING""",
                Params.of("parent", parent).and("target", target).and("source", source).and("at", at))
                .replaceWithVoid();
    }

    private static Run run(Row r) {
        return new Run(r.getLong("instance_exec_id"), r.getLong("process_id"), r.getLongOrNull("target_batch_id"),
                r.getString("batch_marking"), r.getString("state"), r.getTime("started_at"), r.getTime("ended_at"));
    }

    private static StepRun stepRun(Row r) {
        return new StepRun(r.getLong("sub_instance_exec_id"), r.getLong("sub_process_id"),
                r.getLong("parent_process_id"), r.getLong("parent_instance_exec_id"), r.getString("state"),
                r.getTime("started_at"), r.getTime("ended_at"));
    }

    private static Enqueue enqueue(Row r) {
        return new Enqueue(r.getLong("queue_id"), r.getLong("source_batch_id"), r.getLongOrNull("source_process_id"),
                r.getLong("consumer_process_id"), r.getString("batch_marking"), r.getTime("enqueued_at"));
    }

    private static ProcessEdge edge(Row r) {
        return new ProcessEdge(r.getLongOrNull("from_process"), r.getLong("to_process"), r.getLongOrNull("via_step"),
                r.getLong("batch_id"), r.getLongOrNull("from_run"), r.getLongOrNull("to_run"),
                r.getBoolean("consumed"));
    }
}
