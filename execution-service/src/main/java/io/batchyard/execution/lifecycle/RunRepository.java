package io.batchyard.execution.lifecycle;

import io.batchyard.persistence.Columns;

import static io.batchyard.persistence.Columns.intOrNull;
import static io.batchyard.persistence.Columns.longOrNull;
import static io.batchyard.persistence.Columns.time;

import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.SqlRepository;
import io.batchyard.execution.recovery.LastRecoverableStep;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** SQL over runs and their state history; every method joins the caller's session and transaction. */
@ApplicationScoped
public class RunRepository extends SqlRepository {

    private static final String COLUMNS = """
            instance_exec_id, process_id, parent_instance_exec_id, start_ts, end_ts, exec_state, target_batch_id,
              batch_marking, retry, last_recoverable_sp_id, version, failure_code, failure_text""";
    private static final String RUN = "SELECT " + COLUMNS + " FROM instance_exec";
    /**
     * A list's filter. {@code :apps} null shows runs of every process; otherwise only those whose process belongs to
     * one of these applications (comma-separated ids; the read model records a step under its parent's application).
     */
    private static final String FILTER = " WHERE (CAST(:p AS bigint) IS NULL OR process_id = CAST(:p AS bigint))"
            + " AND (CAST(:s AS int) IS NULL OR exec_state = CAST(:s AS int))"
            + " AND (CAST(:apps AS text) IS NULL OR process_id IN (SELECT d.process_id FROM process_definition d"
            + " WHERE d.application_id = ANY(CAST(string_to_array(CAST(:apps AS text), ',') AS bigint[]))))";

    /** One recorded transition of a run. */
    public record Transition(Integer fromState, int toState, OffsetDateTime changedAt, String cause) {
    }

    public Uni<Long> nextId() {
        return value("SELECT nextval('instance_exec_seq')", Long.class, none());
    }

    /**
     * Inserts a running run and its first history row in one statement and returns the run as stored. {@code id}
     * null takes the next id from the sequence; InitJob passes one it drew earlier because the claim needs it first.
     */
    public Uni<Run> start(Long id, long processId, Long parentRun, Long targetBatchId, boolean retry,
                          Long lastRecoverable, String cause) {
        return row("""
                        WITH started AS (
                          INSERT INTO instance_exec (instance_exec_id, process_id, parent_instance_exec_id, exec_state,
                            target_batch_id, retry, last_recoverable_sp_id)
                          VALUES (COALESCE(CAST(:id AS bigint), nextval('instance_exec_seq')), :p,
                            CAST(:parent AS bigint), 2, CAST(:target AS bigint), :retry, CAST(:lr AS bigint))
                          RETURNING %1$s),
                        logged AS (
                          INSERT INTO exec_state_history (instance_exec_id, from_state, to_state, cause)
                          SELECT instance_exec_id, NULL, exec_state, :cause FROM started)
                        SELECT %1$s FROM started""".formatted(COLUMNS),
                params("id", id).and("p", processId).and("parent", parentRun).and("target", targetBatchId)
                        .and("retry", retry).and("lr", lastRecoverable).and("cause", cause), RunRepository::run)
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
        return row("""
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
                params("to", to.id).and("marking", marking).and("id", run.instanceExecId()).and("version", run.version())
                        .and("from", run.state().id).and("cause", cause).and("fcode", reason.code())
                        .and("ftext", reason.text()), RunRepository::run)
                .map(moved -> moved.orElseThrow(() -> ExecutionError.CONCURRENT_CHANGE.exception("run "
                        + run.instanceExecId() + " changed concurrently")));
    }

    public Uni<Optional<Run>> find(long id) {
        return row(RUN + " WHERE instance_exec_id = :id", params("id", id), RunRepository::run);
    }

    public Uni<List<Run>> running(long processId) {
        return rows(RUN + " WHERE process_id = :p AND exec_state = 2", params("p", processId), RunRepository::run);
    }

    public Uni<Boolean> anyRunning(Collection<Long> processIds) {
        if (processIds.isEmpty()) {
            return Uni.createFrom().item(false);
        }
        return value("SELECT count(*) FROM instance_exec WHERE process_id IN (:ids) AND exec_state = 2", Long.class,
                params("ids", processIds)).map(n -> n > 0);
    }

    /** The running runs of any of {@code processIds}: one read where a call checks a parent and its steps. */
    public Uni<List<Run>> runningAmong(Collection<Long> processIds) {
        return rows(RUN + " WHERE process_id IN (:ids) AND exec_state = 2 ORDER BY instance_exec_id",
                params("ids", processIds), RunRepository::run);
    }

    public Uni<Optional<Run>> latest(long processId) {
        return row(RUN + " WHERE process_id = :p ORDER BY instance_exec_id DESC LIMIT 1", params("p", processId),
                RunRepository::run);
    }

    /** The latest run of each step within one parent run. */
    public Uni<List<Run>> latestStepRuns(long parentRunId) {
        return rows("SELECT DISTINCT ON (process_id) " + COLUMNS + " FROM instance_exec"
                        + " WHERE parent_instance_exec_id = :run ORDER BY process_id, instance_exec_id DESC",
                params("run", parentRunId), RunRepository::run);
    }

    /** Completed step runs of the parent's runs since its last successful run (the current failure streak). */
    public Uni<List<LastRecoverableStep.StepRun>> stepRunsSinceLastSuccess(long parentId) {
        return rows("""
                        SELECT s.process_id, s.instance_exec_id, s.exec_state, s.end_ts FROM instance_exec s
                        JOIN instance_exec p ON p.instance_exec_id = s.parent_instance_exec_id
                        WHERE p.process_id = :parent AND s.end_ts IS NOT NULL
                          AND p.instance_exec_id > COALESCE((SELECT max(instance_exec_id) FROM instance_exec
                                                             WHERE process_id = :parent AND exec_state = 3), 0)""",
                params("parent", parentId), r -> new LastRecoverableStep.StepRun(longOrNull(r[0]), longOrNull(r[1]),
                        intOrNull(r[2]) == 3, time(r[3])));
    }

    /** A page of runs, newest first; {@code applications} empty: of every process, else of these applications'. */
    public Uni<List<Run>> list(Long processId, Integer state, Optional<List<Long>> applications, int limit,
                               int offset) {
        return rows(RUN + FILTER + " ORDER BY instance_exec_id DESC LIMIT :limit OFFSET :offset",
                filter(processId, state, applications).and("limit", limit).and("offset", offset), RunRepository::run);
    }

    public Uni<Long> count(Long processId, Integer state, Optional<List<Long>> applications) {
        return value("SELECT count(*) FROM instance_exec" + FILTER, Long.class,
                filter(processId, state, applications));
    }

    private static Params filter(Long processId, Integer state, Optional<List<Long>> applications) {
        return params("p", processId).and("s", state).and("apps", applications
                .map(ids -> String.join(",", ids.stream().map(String::valueOf).toList())).orElse(null));
    }

    public Uni<List<Run>> stepRunsOf(long parentRunId) {
        return rows(RUN + " WHERE parent_instance_exec_id = :run ORDER BY instance_exec_id", params("run", parentRunId),
                RunRepository::run);
    }

    public Uni<List<Transition>> history(long runId) {
        return rows("""
                        SELECT from_state, to_state, changed_at, cause FROM exec_state_history
                        WHERE instance_exec_id = :id ORDER BY history_id""", params("id", runId),
                r -> new Transition(intOrNull(r[0]), intOrNull(r[1]), time(r[2]), (String) r[3]));
    }

    private static Run run(Object[] r) {
        return new Run(longOrNull(r[0]), longOrNull(r[1]), longOrNull(r[2]), time(r[3]), time(r[4]),
                ExecState.of(intOrNull(r[5])), longOrNull(r[6]), (String) r[7], (Boolean) r[8], longOrNull(r[9]),
                intOrNull(r[10]), intOrNull(r[11]), (String) r[12]);
    }
}
