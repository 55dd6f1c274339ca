package io.batchyard.execution.lifecycle;

import io.batchyard.eventing.StagedEvent;
import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.recovery.LastRecoverableStep;
import io.batchyard.execution.runs.FailureReason;
import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.batchyard.readmodel.ProcessDefinitionRepository.Alongside;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** SQL over runs and their state history; every method joins the caller's session and transaction. */
@ApplicationScoped
public class RunRepository extends SqlRepository {

    private static final String COLUMNS = """
            instance_exec_id, process_id, parent_instance_exec_id, start_ts, end_ts, exec_state, target_batch_id,
              batch_marking, retry, last_recoverable_sp_id, version, failure_code, failure_text""";
    private static final String RUN = "SELECT " + COLUMNS + " FROM instance_exec";
    /**
     * A list's condition on applications: only runs whose process belongs to one of {@code :apps} (comma-separated
     * ids; the read model records a step under its parent's application).
     */
    private static final String OF_APPLICATIONS = "process_id IN (SELECT d.process_id FROM process_definition d"
            + " WHERE d.application_id = ANY(CAST(string_to_array(CAST(:apps AS text), ',') AS bigint[])))";

    /**
     * The completed step runs of {@code :parent}'s current failure streak (its runs since its last successful one):
     * the condition on {@code instance_exec} that InitJob's reads and {@link #stepRunsSinceLastSuccess} share.
     */
    private static final String STREAK_STEP_RUNS = """
            end_ts IS NOT NULL AND parent_instance_exec_id IN (
              SELECT instance_exec_id FROM instance_exec WHERE process_id = :parent
                AND instance_exec_id > COALESCE((SELECT max(instance_exec_id) FROM instance_exec
                                                 WHERE process_id = :parent AND exec_state = 3), 0))""";

    /**
     * The median duration in milliseconds of each process's last {@code recent} successful runs (parents' runs, not
     * their steps'); a process without a successful run is absent.
     */
    public Uni<Map<Long, Long>> medianDurations(Collection<Long> processIds, int recent) {
        if (processIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return list("""
                        SELECT process_id, CAST(round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms)) AS bigint) AS median_ms
                        FROM (SELECT process_id, EXTRACT(EPOCH FROM (end_ts - start_ts)) * 1000 AS ms,
                                row_number() OVER (PARTITION BY process_id ORDER BY instance_exec_id DESC) AS n
                              FROM instance_exec
                              WHERE process_id = ANY(CAST(:ids AS bigint[])) AND parent_instance_exec_id IS NULL
                                AND exec_state = 3) r
                        WHERE n <= :recent GROUP BY process_id""",
                Params.of("ids", processIds.toArray(Long[]::new)).and("recent", recent),
                r -> Map.entry(r.getLong("process_id"), r.getLong("median_ms")))
                .map(rows -> rows.stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    }

    /** The batch marking (a stand-alone run's bucket) of each of these runs that has one. */
    public Uni<Map<Long, String>> markings(Collection<Long> runIds) {
        if (runIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return list("""
                        SELECT instance_exec_id, batch_marking FROM instance_exec
                        WHERE instance_exec_id = ANY(CAST(:ids AS bigint[])) AND batch_marking IS NOT NULL""",
                Params.of("ids", runIds.toArray(Long[]::new)),
                r -> Map.entry(r.getLong("instance_exec_id"), r.getString("batch_marking")))
                .map(rows -> rows.stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
    }

    /**
     * Inserts a running run and its first history row in one statement and returns the run as stored, writing
     * {@code event} (every field of which the caller knew beforehand: it passes the id) to the outbox in the same
     * statement. {@code id} null takes the next id from the sequence; InitJob passes the one {@link #jobStartReads}
     * drew, because the claim needs it first.
     */
    public Uni<Run> start(Long id, long processId, Long parentRun, Long targetBatchId, boolean retry,
                          Long lastRecoverable, String cause, Optional<StagedEvent> event) {
        return first("""
                        WITH started AS (
                          INSERT INTO instance_exec (instance_exec_id, process_id, parent_instance_exec_id, exec_state,
                            target_batch_id, retry, last_recoverable_sp_id)
                          VALUES (COALESCE(CAST(:id AS bigint), nextval('instance_exec_seq')), :p,
                            CAST(:parent AS bigint), 2, CAST(:target AS bigint), :retry, CAST(:lr AS bigint))
                          RETURNING %1$s),
                        logged AS (
                          INSERT INTO exec_state_history (instance_exec_id, from_state, to_state, cause)
                          SELECT instance_exec_id, NULL, exec_state, :cause FROM started)%2$s
                        SELECT %1$s FROM started""".formatted(COLUMNS,
                        event.map(e -> ",\noutboxed AS (" + e.insertFrom("started") + ")").orElse("")),
                Params.of("id", id).and("p", processId).and("parent", parentRun).and("target", targetBatchId)
                        .and("retry", retry).and("lr", lastRecoverable).and("cause", cause)
                        .and(event.map(StagedEvent::params).orElse(Params.none())), RunRepository::run)
                .map(Optional::orElseThrow);
    }

    /**
     * Moves a run along the transition table and records the move, in one statement with optimistic locking on the
     * run's version; returns the run as stored afterwards.
     */
    public Uni<Run> transition(Run run, ExecState to, String marking, String cause) {
        return transition(run, to, marking, FailureReason.NONE, cause);
    }

    /** Fails a run as {@link #transition} does, storing why (TermJob's code and text) with the same statement. */
    public Uni<Run> fail(Run run, FailureReason reason, String cause) {
        return transition(run, ExecState.FAILED, null, reason, cause);
    }

    private Uni<Run> transition(Run run, ExecState to, String marking, FailureReason reason, String cause) {
        if (!run.state().canBecome(to)) {
            return Uni.createFrom().failure(ExecutionError.ILLEGAL_TRANSITION.exception("run " + run.instanceExecId()
                    + " cannot go from " + run.state() + " to " + to));
        }
        return first("""
                        WITH moved AS (
                          UPDATE instance_exec SET exec_state = :to, end_ts = now(), version = version + 1,
                            batch_marking = COALESCE(CAST(:marking AS text), batch_marking),
                            failure_code = CAST(:fcode AS int), failure_text = CAST(:ftext AS text)
                          WHERE instance_exec_id = :id AND version = :version
                          RETURNING %1$s),
                        logged AS (
                          INSERT INTO exec_state_history (instance_exec_id, from_state, to_state, cause)
                          SELECT instance_exec_id, :from, exec_state, :cause FROM moved)
                        SELECT %1$s FROM moved""".formatted(COLUMNS),
                Params.of("to", to.id).and("marking", marking).and("id", run.instanceExecId())
                        .and("version", run.version()).and("from", run.state().id).and("cause", cause)
                        .and("fcode", reason.code()).and("ftext", reason.text()), RunRepository::run)
                .map(moved -> moved.orElseThrow(() -> ExecutionError.CONCURRENT_CHANGE.exception("run "
                        + run.instanceExecId() + " changed concurrently")));
    }

    /**
     * What InitJob reads about a job's runs after locking its parent, from one statement: the running runs among the
     * parent and its steps, the parent's latest run, the step runs of its current failure streak (see
     * {@link #stepRunsSinceLastSuccess}) and the id the new run will have (drawn now because the queue's claim records
     * it; an id drawn by a call that is then refused is never used, a gap the sequence allows).
     */
    public record JobStartReads(List<Run> running, Optional<Run> latest,
                                List<LastRecoverableStep.StepRun> sinceLastSuccess, long nextId) {
    }

    /**
     * What HaltJob found and did in its one statement: the running runs among the parent and its steps, the latest
     * run of each step under the parent's running run, and the job's run as stored afterwards (empty when a check
     * failed and nothing changed).
     */
    public record JobEnd(List<Run> running, List<Run> latestStepRuns, Optional<Run> halted, boolean eventWritten) {
    }

    /**
     * InitJob's reads ({@link JobStartReads}) in one statement, which the caller runs after it locked the parent's
     * read-model row, so that it sees every call that held the lock before.
     */
    public Uni<JobStartReads> jobStartReads(long parentId, Collection<Long> jobAndSteps) {
        return list("""
                        WITH next AS (SELECT nextval('instance_exec_seq') AS next_id),
                        found AS (
                          SELECT 'running' AS kind, %1$s FROM instance_exec
                          WHERE process_id IN (:ids) AND exec_state = 2
                          UNION ALL
                          (SELECT 'latest' AS kind, %1$s FROM instance_exec WHERE process_id = :parent
                           ORDER BY instance_exec_id DESC LIMIT 1)
                          UNION ALL
                          SELECT 'streak' AS kind, %1$s FROM instance_exec WHERE %2$s)
                        SELECT next.next_id, found.* FROM next LEFT JOIN found ON true"""
                        .formatted(COLUMNS, STREAK_STEP_RUNS),
                Params.of("ids", jobAndSteps).and("parent", parentId), r -> r).map(rows -> {
            List<Run> running = new ArrayList<>();
            Optional<Run> latest = Optional.empty();
            List<LastRecoverableStep.StepRun> streak = new ArrayList<>();
            for (Row r : rows) {
                String kind = r.getString("kind");
                if ("running".equals(kind)) {
                    running.add(run(r));
                } else if ("latest".equals(kind)) {
                    latest = Optional.of(run(r));
                } else if ("streak".equals(kind)) {
                    streak.add(stepRun(r));
                }
            }
            running.sort(Comparator.comparingLong(Run::instanceExecId));
            return new JobStartReads(running, latest, streak, rows.get(0).getLong("next_id"));
        });
    }

    /**
     * The parent's running run as a job call reads it with the parent's definition, before its statement; it may be
     * stale (see {@link ProcessDefinitionRepository#lockGuardedWithSteps(long, Alongside)}).
     */
    public record JobCallRun(Long runId, Long targetBatchId) {
    }

    /** {@link JobCallRun} as an addition to the parent's definition read. */
    public Alongside<JobCallRun> jobCallRun() {
        return new Alongside<>("jr.job_run_id, jr.job_target_batch_id", """
                LEFT JOIN LATERAL (SELECT instance_exec_id AS job_run_id, target_batch_id AS job_target_batch_id
                  FROM instance_exec WHERE process_id = process_definition.process_id AND exec_state = 2
                  ORDER BY instance_exec_id LIMIT 1) jr ON true""", Params.none(),
                r -> new JobCallRun(r.getLongOrNull("job_run_id"), r.getLongOrNull("job_target_batch_id")));
    }

    /**
     * HaltJob in one statement, run after the parent's row is locked: reads {@link JobEnd}'s runs and, when the job
     * has exactly one running run, none of its steps runs, and no step's latest run under it failed, moves that run
     * to SUCCESS (with the batch marking, when one is given), records the move and writes {@code staged} when the run
     * it halted is the one the event describes ({@link JobEnd#eventWritten}). The caller applies the same checks to
     * what was read, to answer which one failed.
     */
    public Uni<JobEnd> endJob(long parentId, Collection<Long> stepIds, String marking, String cause,
                              Optional<StagedRunEvent> staged) {
        StagedSql event = StagedSql.of(staged, "moved");
        return list("""
                        WITH running AS (
                          SELECT %1$s FROM instance_exec
                          WHERE (process_id = :parent OR process_id = ANY(CAST(:steps AS bigint[]))) AND exec_state = 2),
                        latest_step AS (
                          SELECT DISTINCT ON (process_id) %1$s FROM instance_exec
                          WHERE parent_instance_exec_id IN (SELECT instance_exec_id FROM running
                                                            WHERE process_id = :parent)
                          ORDER BY process_id, instance_exec_id DESC),
                        moved AS (
                          UPDATE instance_exec SET exec_state = 3, end_ts = now(), version = version + 1,
                            batch_marking = COALESCE(CAST(:marking AS text), batch_marking)
                          WHERE instance_exec_id = (SELECT instance_exec_id FROM running WHERE process_id = :parent
                                                    LIMIT 1)
                            AND (SELECT count(*) FROM running) = 1
                            AND NOT EXISTS (SELECT 1 FROM latest_step WHERE exec_state = 6
                                             AND process_id = ANY(CAST(:steps AS bigint[])))
                          RETURNING %1$s),
                        logged AS (
                          INSERT INTO exec_state_history (instance_exec_id, from_state, to_state, cause)
                          SELECT instance_exec_id, 2, exec_state, :cause FROM moved)%2$s
                        SELECT 'running' AS kind, %1$s FROM running
                        UNION ALL
                        SELECT 'latest_step' AS kind, %1$s FROM latest_step
                        UNION ALL
                        SELECT CASE WHEN %3$s THEN 'halted_with_event' ELSE 'halted' END AS kind, %1$s FROM moved"""
                        .formatted(COLUMNS, event.with(), event.written()),
                Params.of("parent", parentId).and("steps", stepIds.toArray(Long[]::new)).and("marking", marking)
                        .and("cause", cause).and(event.params()), r -> r).map(rows -> {
            List<Run> running = new ArrayList<>();
            List<Run> latestSteps = new ArrayList<>();
            Optional<Run> halted = Optional.empty();
            boolean eventWritten = false;
            for (Row r : rows) {
                switch (r.getString("kind")) {
                    case "running" -> running.add(run(r));
                    case "latest_step" -> latestSteps.add(run(r));
                    default -> {
                        halted = Optional.of(run(r));
                        eventWritten = r.getString("kind").equals("halted_with_event");
                    }
                }
            }
            running.sort(Comparator.comparingLong(Run::instanceExecId));
            return new JobEnd(running, latestSteps, halted, eventWritten);
        });
    }

    /**
     * What a step call found and did in its one statement: whether the parent and the step were running before it,
     * and the step's run as stored afterwards (empty when the call's condition did not hold and nothing changed).
     */
    public record StepMove(boolean parentRunning, boolean stepRunning, Optional<Run> run, boolean eventWritten) {
    }

    /**
     * What a step call reads of the job's runs with the step's definition, before its statement ({@link #startStep},
     * {@link #endStep}): the parent's running run and the step's, and for InitStep the id its run will have. The
     * call stages its event from these; they may be stale (see
     * {@link ProcessDefinitionRepository#findGuardedLockingParent(long, Alongside)}), which the statement detects.
     */
    public record StepCallRuns(Long parentRunId, Long parentTargetBatchId, Long stepRunId, Long stepParentRunId,
                               Long stepTargetBatchId, Long nextId) {
    }

    /**
     * An event staged from what a call read before its statement ({@link StepCallRuns}, {@link JobCallRun}), with the
     * values of the run it describes: its id, its parent run (null for a job's run) and its target batch. The
     * statement writes the event only if the run it moves carries exactly these.
     */
    public record StagedRunEvent(StagedEvent event, long runId, Long parentRunId, Long targetBatchId) {
    }

    /** {@link StepCallRuns} as an addition to the step's definition read; {@code drawId}: draw the new run's id too. */
    public Alongside<StepCallRuns> stepCallRuns(boolean drawId) {
        return new Alongside<>("""
                pr.parent_run_id, pr.parent_target_batch_id, sr.step_run_id, sr.step_parent_run_id,
                  sr.step_target_batch_id,
                  CASE WHEN CAST(:draw_id AS boolean) THEN nextval('instance_exec_seq') END AS next_id""", """
                LEFT JOIN LATERAL (SELECT instance_exec_id AS parent_run_id, target_batch_id AS parent_target_batch_id
                  FROM instance_exec WHERE process_id = process_definition.parent_process_id AND exec_state = 2
                  ORDER BY instance_exec_id LIMIT 1) pr ON true
                LEFT JOIN LATERAL (SELECT instance_exec_id AS step_run_id, parent_instance_exec_id AS step_parent_run_id,
                    target_batch_id AS step_target_batch_id
                  FROM instance_exec WHERE process_id = process_definition.process_id AND exec_state = 2
                  ORDER BY instance_exec_id LIMIT 1) sr ON true""", Params.of("draw_id", drawId),
                r -> new StepCallRuns(r.getLongOrNull("parent_run_id"), r.getLongOrNull("parent_target_batch_id"),
                        r.getLongOrNull("step_run_id"), r.getLongOrNull("step_parent_run_id"),
                        r.getLongOrNull("step_target_batch_id"), r.getLongOrNull("next_id")));
    }

    /**
     * A staged event as parts of the statement that moves the run: the {@code WITH} item that writes it once the run
     * {@code source} yields carries exactly the staged values, the answer's expression that says whether it did, and
     * their parameters; with nothing staged, no item and {@code false}.
     */
    private record StagedSql(String with, String written, Params params) {

        static StagedSql of(Optional<StagedRunEvent> staged, String source) {
            return staged.map(e -> new StagedSql(",\noutboxed AS (" + e.event().insertFrom("""
                            %1$s WHERE %1$s.instance_exec_id = :staged_run
                              AND %1$s.parent_instance_exec_id IS NOT DISTINCT FROM CAST(:staged_parent_run AS bigint)
                              AND %1$s.target_batch_id IS NOT DISTINCT FROM CAST(:staged_target AS bigint)"""
                            .formatted(source)) + ")", "EXISTS (SELECT 1 FROM outboxed)",
                    e.event().params().and("staged_run", e.runId()).and("staged_parent_run", e.parentRunId())
                            .and("staged_target", e.targetBatchId())))
                    .orElse(new StagedSql("", "false", Params.none()));
        }
    }

    /**
     * InitStep in one statement: starts a run of {@code stepId} under its parent's running run (its target batch)
     * when the parent runs and the step does not, with its first history row, and says what it found. Nothing
     * changes otherwise. The caller holds the parent's read-model row, so no other call of this job runs between
     * the statement's reads and its insert. {@code id}: the new run's id, drawn beforehand (null draws it now);
     * {@code staged} is written when the run started is the one the event describes.
     */
    public Uni<StepMove> startStep(long parentId, long stepId, Long id, String cause,
                                   Optional<StagedRunEvent> staged) {
        StagedSql event = StagedSql.of(staged, "started");
        return first("""
                        WITH parent_run AS (
                          SELECT instance_exec_id, target_batch_id FROM instance_exec
                          WHERE process_id = :parent AND exec_state = 2 ORDER BY instance_exec_id LIMIT 1),
                        step_running AS (
                          SELECT count(*) AS n FROM instance_exec WHERE process_id = :step AND exec_state = 2),
                        started AS (
                          INSERT INTO instance_exec (instance_exec_id, process_id, parent_instance_exec_id, exec_state,
                            target_batch_id, retry, last_recoverable_sp_id)
                          SELECT COALESCE(CAST(:id AS bigint), nextval('instance_exec_seq')), :step,
                            parent_run.instance_exec_id, 2, parent_run.target_batch_id, false, NULL
                          FROM parent_run, step_running WHERE step_running.n = 0
                          RETURNING %1$s),
                        logged AS (
                          INSERT INTO exec_state_history (instance_exec_id, from_state, to_state, cause)
                          SELECT instance_exec_id, NULL, exec_state, :cause FROM started)%2$s
                        SELECT EXISTS (SELECT 1 FROM parent_run) AS parent_running,
                          (SELECT n FROM step_running) > 0 AS step_running, %3$s AS event_written, started.*
                        FROM (SELECT 1) AS answer LEFT JOIN started ON true""".formatted(COLUMNS, event.with(), event.written()),
                Params.of("parent", parentId).and("step", stepId).and("id", id).and("cause", cause)
                        .and(event.params()), RunRepository::stepMove)
                .map(Optional::orElseThrow);
    }

    /**
     * HaltStep/TermStep in one statement: ends the running run of {@code stepId} in {@code to} when its parent runs,
     * records the move, and says what it found. Nothing changes otherwise. The caller holds the parent's read-model
     * row (see {@link #startStep}); {@code staged} is written as there.
     */
    public Uni<StepMove> endStep(long parentId, long stepId, ExecState to, String cause,
                                 Optional<StagedRunEvent> staged) {
        StagedSql event = StagedSql.of(staged, "moved");
        if (!ExecState.RUNNING.canBecome(to)) {
            return Uni.createFrom().failure(ExecutionError.ILLEGAL_TRANSITION.exception("a step run cannot go from "
                    + ExecState.RUNNING + " to " + to));
        }
        return first("""
                        WITH parent_run AS (
                          SELECT 1 FROM instance_exec WHERE process_id = :parent AND exec_state = 2 LIMIT 1),
                        step_run AS (
                          SELECT instance_exec_id FROM instance_exec WHERE process_id = :step AND exec_state = 2
                          ORDER BY instance_exec_id LIMIT 1),
                        moved AS (
                          UPDATE instance_exec SET exec_state = :to, end_ts = now(), version = version + 1
                          WHERE instance_exec_id = (SELECT instance_exec_id FROM step_run) AND exec_state = 2
                            AND EXISTS (SELECT 1 FROM parent_run)
                          RETURNING %1$s),
                        logged AS (
                          INSERT INTO exec_state_history (instance_exec_id, from_state, to_state, cause)
                          SELECT instance_exec_id, 2, exec_state, :cause FROM moved)%2$s
                        SELECT EXISTS (SELECT 1 FROM parent_run) AS parent_running,
                          EXISTS (SELECT 1 FROM step_run) AS step_running, %3$s AS event_written, moved.*
                        FROM (SELECT 1) AS answer LEFT JOIN moved ON true""".formatted(COLUMNS, event.with(), event.written()),
                Params.of("parent", parentId).and("step", stepId).and("to", to.id).and("cause", cause)
                        .and(event.params()), RunRepository::stepMove).map(Optional::orElseThrow);
    }

    public Uni<Optional<Run>> find(long id) {
        return first(RUN + " WHERE instance_exec_id = :id", Params.of("id", id), RunRepository::run);
    }

    public Uni<List<Run>> running(long processId) {
        return list(RUN + " WHERE process_id = :p AND exec_state = 2", Params.of("p", processId), RunRepository::run);
    }

    public Uni<Boolean> anyRunning(Collection<Long> processIds) {
        if (processIds.isEmpty()) {
            return Uni.createFrom().item(false);
        }
        return single("SELECT count(*) FROM instance_exec WHERE process_id IN (:ids) AND exec_state = 2", Long.class,
                Params.of("ids", processIds)).map(n -> n > 0);
    }

    public Uni<Optional<Run>> latest(long processId) {
        return first(RUN + " WHERE process_id = :p ORDER BY instance_exec_id DESC LIMIT 1", Params.of("p", processId),
                RunRepository::run);
    }

    /** Completed step runs of the parent's runs since its last successful run (the current failure streak). */
    public Uni<List<LastRecoverableStep.StepRun>> stepRunsSinceLastSuccess(long parentId) {
        return list("SELECT process_id, instance_exec_id, exec_state, end_ts FROM instance_exec WHERE "
                + STREAK_STEP_RUNS, Params.of("parent", parentId), RunRepository::stepRun);
    }

    private static LastRecoverableStep.StepRun stepRun(Row r) {
        return new LastRecoverableStep.StepRun(r.getLong("process_id"), r.getLong("instance_exec_id"),
                r.getInt("exec_state") == 3, r.getTime("end_ts"));
    }

    /** A page of runs, newest first; {@code applications} empty: of every process, else of these applications'. */
    public Uni<List<Run>> list(Long processId, Integer state, Optional<List<Long>> applications, int limit,
                               int offset) {
        Where where = filter(processId, state, applications);
        return list(RUN + where.sql() + " ORDER BY instance_exec_id DESC" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()), RunRepository::run);
    }

    public Uni<Long> count(Long processId, Integer state, Optional<List<Long>> applications) {
        Where where = filter(processId, state, applications);
        return single("SELECT count(*) FROM instance_exec" + where.sql(), Long.class, where.params());
    }

    private static Where filter(Long processId, Integer state, Optional<List<Long>> applications) {
        Where where = Where.all().eq("process_id", processId).eq("exec_state", state);
        applications.ifPresent(ids -> where.and(OF_APPLICATIONS,
                Params.of("apps", String.join(",", ids.stream().map(String::valueOf).toList()))));
        return where;
    }

    public Uni<List<Run>> stepRunsOf(long parentRunId) {
        return list(RUN + " WHERE parent_instance_exec_id = :run ORDER BY instance_exec_id",
                Params.of("run", parentRunId), RunRepository::run);
    }

    public Uni<List<Transition>> history(long runId) {
        return list("""
                        SELECT from_state, to_state, changed_at, cause FROM exec_state_history
                        WHERE instance_exec_id = :id ORDER BY history_id""", Params.of("id", runId),
                r -> new Transition(r.getIntOrNull("from_state"), r.getInt("to_state"), r.getTime("changed_at"),
                        r.getString("cause")));
    }

    private static StepMove stepMove(Row r) {
        return new StepMove(r.getBoolean("parent_running"), r.getBoolean("step_running"),
                r.get("instance_exec_id") == null ? Optional.empty() : Optional.of(run(r)),
                r.getBoolean("event_written"));
    }

    private static Run run(Row r) {
        return new Run(r.getLong("instance_exec_id"), r.getLong("process_id"),
                r.getLongOrNull("parent_instance_exec_id"), r.getTime("start_ts"), r.getTime("end_ts"),
                ExecState.of(r.getInt("exec_state")), r.getLongOrNull("target_batch_id"), r.getString("batch_marking"),
                r.getBoolean("retry"), r.getLongOrNull("last_recoverable_sp_id"), r.getInt("version"),
                r.getIntOrNull("failure_code"), r.getString("failure_text"));
    }
}
