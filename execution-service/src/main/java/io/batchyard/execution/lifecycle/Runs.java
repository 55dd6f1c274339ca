package io.batchyard.execution.lifecycle;

import io.batchyard.execution.ExecutionError;
import io.batchyard.execution.recovery.LastRecoverableStep;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** SQL over runs and their state history; every method runs on the caller's handle. */
@ApplicationScoped
public class Runs {

    public long nextId(Handle tx) {
        return tx.createQuery("SELECT nextval('instance_exec_seq')").mapTo(Long.class).one();
    }

    public void start(Handle tx, long id, long processId, Long parentRun, Long targetBatchId, boolean retry,
                      Long lastRecoverable, String cause) {
        tx.createUpdate("""
                        INSERT INTO instance_exec (instance_exec_id, process_id, parent_instance_exec_id, exec_state,
                          target_batch_id, retry, last_recoverable_sp_id)
                        VALUES (:id, :p, :parent, 2, :target, :retry, :lr)""")
                .bind("id", id).bind("p", processId).bind("parent", parentRun).bind("target", targetBatchId)
                .bind("retry", retry).bind("lr", lastRecoverable).execute();
        history(tx, id, null, ExecState.RUNNING, cause);
    }

    /** Moves a run along the transition table, with optimistic locking on its version. */
    public void transition(Handle tx, Run run, ExecState to, String marking, String cause) {
        if (!run.state().canBecome(to)) {
            throw ExecutionError.ILLEGAL_TRANSITION.exception("run " + run.instanceExecId() + " cannot go from "
                    + run.state() + " to " + to);
        }
        int updated = tx.createUpdate("""
                        UPDATE instance_exec SET exec_state = :to, end_ts = now(), version = version + 1,
                          batch_marking = COALESCE(:marking, batch_marking)
                        WHERE instance_exec_id = :id AND version = :version""")
                .bind("to", to.id).bind("marking", marking).bind("id", run.instanceExecId()).bind("version", run.version())
                .execute();
        if (updated != 1) {
            throw ExecutionError.CONCURRENT_CHANGE.exception("run " + run.instanceExecId() + " changed concurrently");
        }
        history(tx, run.instanceExecId(), run.state(), to, cause);
    }

    private static void history(Handle tx, long id, ExecState from, ExecState to, String cause) {
        tx.createUpdate("""
                        INSERT INTO exec_state_history (instance_exec_id, from_state, to_state, cause)
                        VALUES (:id, :from, :to, :cause)""")
                .bind("id", id).bind("from", from == null ? null : from.id).bind("to", to.id).bind("cause", cause)
                .execute();
    }

    public Optional<Run> find(Handle h, long id) {
        return h.createQuery("SELECT * FROM instance_exec WHERE instance_exec_id = :id").bind("id", id)
                .map((rs, ctx) -> Run.map(rs)).findOne();
    }

    public List<Run> running(Handle h, long processId) {
        return h.createQuery("SELECT * FROM instance_exec WHERE process_id = :p AND exec_state = 2")
                .bind("p", processId).map((rs, ctx) -> Run.map(rs)).list();
    }

    public boolean anyRunning(Handle h, List<Long> processIds) {
        return h.createQuery("SELECT count(*) FROM instance_exec WHERE process_id = ANY(:ids) AND exec_state = 2")
                .bindArray("ids", Long.class, processIds).mapTo(Long.class).one() > 0;
    }

    public Optional<Run> latest(Handle h, long processId) {
        return h.createQuery("SELECT * FROM instance_exec WHERE process_id = :p ORDER BY instance_exec_id DESC LIMIT 1")
                .bind("p", processId).map((rs, ctx) -> Run.map(rs)).findOne();
    }

    /** The latest run of each step within one parent run. */
    public List<Run> latestStepRuns(Handle h, long parentRunId) {
        return h.createQuery("""
                        SELECT DISTINCT ON (process_id) * FROM instance_exec WHERE parent_instance_exec_id = :run
                        ORDER BY process_id, instance_exec_id DESC""")
                .bind("run", parentRunId).map((rs, ctx) -> Run.map(rs)).list();
    }

    /** Completed step runs of the parent's runs since its last successful run (the current failure streak). */
    public List<LastRecoverableStep.StepRun> stepRunsSinceLastSuccess(Handle h, long parentId) {
        return h.createQuery("""
                        SELECT s.process_id, s.instance_exec_id, s.exec_state, s.end_ts FROM instance_exec s
                        JOIN instance_exec p ON p.instance_exec_id = s.parent_instance_exec_id
                        WHERE p.process_id = :parent AND s.end_ts IS NOT NULL
                          AND p.instance_exec_id > COALESCE((SELECT max(instance_exec_id) FROM instance_exec
                                                             WHERE process_id = :parent AND exec_state = 3), 0)""")
                .bind("parent", parentId)
                .map((rs, ctx) -> new LastRecoverableStep.StepRun(rs.getLong(1), rs.getLong(2), rs.getInt(3) == 3,
                        rs.getObject(4, java.time.OffsetDateTime.class)))
                .list();
    }

    public List<Run> list(Handle h, Long processId, Integer state, int limit, int offset) {
        return h.createQuery("""
                        SELECT * FROM instance_exec WHERE (:p IS NULL OR process_id = :p) AND (:s IS NULL OR exec_state = :s)
                        ORDER BY instance_exec_id DESC LIMIT :limit OFFSET :offset""")
                .bindByType("p", processId, Long.class).bindByType("s", state, Integer.class)
                .bind("limit", limit).bind("offset", offset).map((rs, ctx) -> Run.map(rs)).list();
    }

    public long count(Handle h, Long processId, Integer state) {
        return h.createQuery("""
                        SELECT count(*) FROM instance_exec WHERE (:p IS NULL OR process_id = :p)
                          AND (:s IS NULL OR exec_state = :s)""")
                .bindByType("p", processId, Long.class).bindByType("s", state, Integer.class).mapTo(Long.class).one();
    }

    public List<Run> stepRunsOf(Handle h, long parentRunId) {
        return h.createQuery("SELECT * FROM instance_exec WHERE parent_instance_exec_id = :run ORDER BY instance_exec_id")
                .bind("run", parentRunId).map((rs, ctx) -> Run.map(rs)).list();
    }

    /** One recorded transition of a run. */
    public record Transition(Integer fromState, int toState, java.time.OffsetDateTime changedAt, String cause) {
    }

    public List<Transition> history(Handle h, long runId) {
        return h.createQuery("SELECT * FROM exec_state_history WHERE instance_exec_id = :id ORDER BY history_id")
                .bind("id", runId)
                .map((rs, ctx) -> new Transition((Integer) rs.getObject("from_state", Integer.class), rs.getInt("to_state"),
                        rs.getObject("changed_at", java.time.OffsetDateTime.class), rs.getString("cause")))
                .list();
    }
}
