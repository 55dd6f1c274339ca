package io.batchyard.lineage.process;

import io.batchyard.lineage.process.ProcessLineage.Enqueue;
import io.batchyard.lineage.process.ProcessLineage.ProcessEdge;
import io.batchyard.lineage.process.ProcessLineage.Run;
import io.batchyard.lineage.process.ProcessLineage.StepRun;
import io.batchyard.lineage.process.ProjectionFold.Consumption;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

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
     * Upserts runs, each at most once (a statement cannot update a row twice), in one statement. A retried run
     * (JobStarted again after JobFailed) is RUNNING again; the end time of an earlier attempt is cleared, the first
     * start kept.
     */
    public Uni<Void> upsertRuns(List<Run> runs) {
        if (runs.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return update("""
                        INSERT INTO process_run (instance_exec_id, process_id, target_batch_id, batch_marking, state,
                            started_at, ended_at)
                        SELECT r.run, r.process, r.batch, r.marking, r.state, r.started, r.ended
                          FROM unnest(CAST(:run AS bigint[]), CAST(:process AS bigint[]), CAST(:batch AS bigint[]),
                                      CAST(:marking AS text[]), CAST(:state AS text[]),
                                      CAST(CAST(:started AS text[]) AS timestamptz[]),
                                      CAST(CAST(:ended AS text[]) AS timestamptz[]))
                               AS r(run, process, batch, marking, state, started, ended)
                        ON CONFLICT (instance_exec_id) DO UPDATE
                        SET target_batch_id = COALESCE(EXCLUDED.target_batch_id, process_run.target_batch_id),
                            batch_marking = COALESCE(EXCLUDED.batch_marking, process_run.batch_marking),
                            state = EXCLUDED.state,
                            started_at = COALESCE(process_run.started_at, EXCLUDED.started_at),
                            ended_at = CASE WHEN EXCLUDED.state = 'RUNNING' THEN NULL ELSE EXCLUDED.ended_at END""",
                Params.of("run", longs(runs, Run::instanceExecId)).and("process", longs(runs, Run::processId))
                        .and("batch", longs(runs, Run::targetBatchId)).and("marking", texts(runs, Run::batchMarking))
                        .and("state", texts(runs, Run::state)).and("started", times(runs, Run::startedAt))
                        .and("ended", times(runs, Run::endedAt)))
                .replaceWithVoid();
    }

    /**
     * Records step starts and ends, each step at most once, in one statement. An end that arrives without its start
     * still makes the row (started then); a start after the end keeps the end.
     */
    public Uni<Void> upsertStepRuns(List<StepRun> steps) {
        if (steps.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return update("""
                        INSERT INTO step_run (sub_instance_exec_id, sub_process_id, parent_process_id,
                            parent_instance_exec_id, started_at, state, ended_at)
                        SELECT s.sub, s.sub_process, s.parent, s.parent_run, s.started, s.state, s.ended
                          FROM unnest(CAST(:sub AS bigint[]), CAST(:subProcess AS bigint[]), CAST(:parent AS bigint[]),
                                      CAST(:parentRun AS bigint[]), CAST(CAST(:started AS text[]) AS timestamptz[]),
                                      CAST(:state AS text[]), CAST(CAST(:ended AS text[]) AS timestamptz[]))
                               AS s(sub, sub_process, parent, parent_run, started, state, ended)
                        ON CONFLICT (sub_instance_exec_id) DO UPDATE
                        SET state = CASE WHEN EXCLUDED.state = 'RUNNING' THEN step_run.state ELSE EXCLUDED.state END,
                            ended_at = CASE WHEN EXCLUDED.state = 'RUNNING' THEN step_run.ended_at
                                            ELSE GREATEST(EXCLUDED.ended_at, step_run.started_at) END""",
                Params.of("sub", longs(steps, StepRun::subInstanceExecId))
                        .and("subProcess", longs(steps, StepRun::subProcessId))
                        .and("parent", longs(steps, StepRun::parentProcessId))
                        .and("parentRun", longs(steps, StepRun::parentInstanceExecId))
                        .and("started", times(steps, StepRun::startedAt)).and("state", texts(steps, StepRun::state))
                        .and("ended", times(steps, StepRun::endedAt)))
                .replaceWithVoid();
    }

    public Uni<Optional<StepRun>> stepRun(long sub) {
        return first("""
                        SELECT sub_instance_exec_id, sub_process_id, parent_process_id, parent_instance_exec_id, state,
                               started_at, ended_at
                          FROM step_run WHERE sub_instance_exec_id = :sub""", Params.of("sub", sub),
                ProcessLineageRepository::stepRun);
    }

    /** Records batch offers in one statement; an offer already recorded stays as it is. */
    public Uni<Void> insertEnqueues(List<Enqueue> enqueues) {
        if (enqueues.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return update("""
                        INSERT INTO batch_enqueue (queue_id, source_batch_id, source_process_id,
                            consumer_process_id, batch_marking, enqueued_at)
                        SELECT e.queue, e.batch, e.source, e.consumer, e.marking, e.at
                          FROM unnest(CAST(:queue AS bigint[]), CAST(:batch AS bigint[]), CAST(:source AS bigint[]),
                                      CAST(:consumer AS bigint[]), CAST(:marking AS text[]),
                                      CAST(CAST(:at AS text[]) AS timestamptz[]))
                               AS e(queue, batch, source, consumer, marking, at)
                        ON CONFLICT DO NOTHING""",
                Params.of("queue", longs(enqueues, Enqueue::queueId))
                        .and("batch", longs(enqueues, Enqueue::sourceBatchId))
                        .and("source", longs(enqueues, Enqueue::sourceProcessId))
                        .and("consumer", longs(enqueues, Enqueue::consumerProcessId))
                        .and("marking", texts(enqueues, Enqueue::batchMarking))
                        .and("at", times(enqueues, Enqueue::enqueuedAt)))
                .replaceWithVoid();
    }

    /** Records consumed source batches in one statement; one already recorded stays as it is. */
    public Uni<Void> insertConsumptions(List<Consumption> consumptions) {
        if (consumptions.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return update("""
                        INSERT INTO batch_consumption (parent_process_id, target_batch_id, source_batch_id, archived_at)
                        SELECT c.parent, c.target, c.source, c.at
                          FROM unnest(CAST(:parent AS bigint[]), CAST(:target AS bigint[]), CAST(:source AS bigint[]),
                                      CAST(CAST(:at AS text[]) AS timestamptz[])) AS c(parent, target, source, at)
                        ON CONFLICT DO NOTHING""",
                Params.of("parent", longs(consumptions, Consumption::parentProcessId))
                        .and("target", longs(consumptions, Consumption::targetBatchId))
                        .and("source", longs(consumptions, Consumption::sourceBatchId))
                        .and("at", times(consumptions, Consumption::archivedAt)))
                .replaceWithVoid();
    }

    private static <T> Long[] longs(List<T> rows, Function<T, Long> column) {
        return rows.stream().map(column).toArray(Long[]::new);
    }

    private static <T> String[] texts(List<T> rows, Function<T, String> column) {
        return rows.stream().map(column).toArray(String[]::new);
    }

    /** Times travel as ISO text: the driver binds no array of timestamps from Hibernate's. */
    private static <T> String[] times(List<T> rows, Function<T, OffsetDateTime> column) {
        return rows.stream().map(column).map(t -> t == null ? null : t.toInstant().toString()).toArray(String[]::new);
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
