package io.batchyard.execution.lifecycle;

import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.recovery.LastRecoverableStep;
import io.batchyard.execution.runs.FailureReason;
import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
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
     * A list's condition on applications: only runs whose process belongs to one of {@code :apps} (comma-separated
     * ids; the read model records a step under its parent's application).
     */
    private static final String OF_APPLICATIONS = "process_id IN (SELECT d.process_id FROM process_definition d"
            + " WHERE d.application_id = ANY(CAST(string_to_array(CAST(:apps AS text), ',') AS bigint[])))";

    public Uni<Long> nextId() {
        return single("SELECT nextval('instance_exec_seq')", Long.class, Params.none());
    }

    /**
     * Inserts a running run and its first history row in one statement and returns the run as stored. {@code id}
     * null takes the next id from the sequence; InitJob passes one it drew earlier because the claim needs it first.
     */
    public Uni<Run> start(Long id, long processId, Long parentRun, Long targetBatchId, boolean retry,
                          Long lastRecoverable, String cause) {
        return first("""
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
                Params.of("id", id).and("p", processId).and("parent", parentRun).and("target", targetBatchId)
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

    /** The running runs of any of {@code processIds}: one read where a call checks a parent and its steps. */
    public Uni<List<Run>> runningAmong(Collection<Long> processIds) {
        return list(RUN + " WHERE process_id IN (:ids) AND exec_state = 2 ORDER BY instance_exec_id",
                Params.of("ids", processIds), RunRepository::run);
    }

    public Uni<Optional<Run>> latest(long processId) {
        return first(RUN + " WHERE process_id = :p ORDER BY instance_exec_id DESC LIMIT 1", Params.of("p", processId),
                RunRepository::run);
    }

    /** The latest run of each step within one parent run. */
    public Uni<List<Run>> latestStepRuns(long parentRunId) {
        return list("SELECT DISTINCT ON (process_id) " + COLUMNS + " FROM instance_exec"
                        + " WHERE parent_instance_exec_id = :run ORDER BY process_id, instance_exec_id DESC",
                Params.of("run", parentRunId), RunRepository::run);
    }

    /** Completed step runs of the parent's runs since its last successful run (the current failure streak). */
    public Uni<List<LastRecoverableStep.StepRun>> stepRunsSinceLastSuccess(long parentId) {
        return list("""
                        SELECT s.process_id, s.instance_exec_id, s.exec_state, s.end_ts FROM instance_exec s
                        JOIN instance_exec p ON p.instance_exec_id = s.parent_instance_exec_id
                        WHERE p.process_id = :parent AND s.end_ts IS NOT NULL
                          AND p.instance_exec_id > COALESCE((SELECT max(instance_exec_id) FROM instance_exec
                                                             WHERE process_id = :parent AND exec_state = 3), 0)""",
                Params.of("parent", parentId), r -> new LastRecoverableStep.StepRun(r.getLong("process_id"),
                        r.getLong("instance_exec_id"), r.getInt("exec_state") == 3, r.getTime("end_ts")));
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

    private static Run run(Row r) {
        return new Run(r.getLong("instance_exec_id"), r.getLong("process_id"),
                r.getLongOrNull("parent_instance_exec_id"), r.getTime("start_ts"), r.getTime("end_ts"),
                ExecState.of(r.getInt("exec_state")), r.getLongOrNull("target_batch_id"), r.getString("batch_marking"),
                r.getBoolean("retry"), r.getLongOrNull("last_recoverable_sp_id"), r.getInt("version"),
                r.getIntOrNull("failure_code"), r.getString("failure_text"));
    }
}
