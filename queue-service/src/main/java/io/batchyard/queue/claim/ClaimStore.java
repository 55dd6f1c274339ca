package io.batchyard.queue.claim;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * SQL over {@code run_claim}: one row per run that InitJob started, naming the run's parent and target batch. It is
 * what queue-service knows about runs, so lifecycle events are checked against it.
 */
@ApplicationScoped
public class ClaimStore {

    /** A run's claim: its parent process and its target batch; {@code retry} when it took over a failed run's target. */
    public record Claim(long instanceExecId, long parentProcessId, long targetBatchId, boolean retry) {
    }

    public Optional<Claim> find(Handle h, long instanceExecId) {
        return h.createQuery("""
                        SELECT instance_exec_id, parent_process_id, target_batch_id, retry FROM run_claim
                        WHERE instance_exec_id = :ie""")
                .bind("ie", instanceExecId)
                .map((rs, ctx) -> new Claim(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getBoolean(4)))
                .findOne();
    }

    public void insert(Handle tx, Claim c) {
        tx.createUpdate("""
                        INSERT INTO run_claim (instance_exec_id, parent_process_id, target_batch_id, retry)
                        VALUES (:instanceExecId, :parentProcessId, :targetBatchId, :retry)""")
                .bindMethods(c).execute();
    }

    /** Whether some run of the parent claimed this target batch. */
    public boolean claimedFor(Handle h, long parentId, long targetBatchId) {
        return h.createQuery("SELECT count(*) FROM run_claim WHERE parent_process_id = :p AND target_batch_id = :t")
                .bind("p", parentId).bind("t", targetBatchId).mapTo(Long.class).one() > 0;
    }
}
