package io.batchyard.queue.claim;

import io.batchyard.persistence.Columns;

import static io.batchyard.persistence.Columns.toLong;

import io.batchyard.queue.NativeRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * SQL over {@code run_claim}: one row per run that InitJob started, naming the run's parent and target batch. It is
 * what queue-service knows about runs, so lifecycle events are checked against it.
 */
@ApplicationScoped
public class ClaimRepository extends NativeRepository {

    /** A run's claim: its parent process and its target batch; {@code retry} when it took over a failed run's target. */
    public record Claim(long instanceExecId, long parentProcessId, long targetBatchId, boolean retry) {
    }

    private static final String CLAIMS =
            "SELECT instance_exec_id, parent_process_id, target_batch_id, retry FROM run_claim";

    public Uni<Optional<Claim>> find(long instanceExecId) {
        return first(CLAIMS + " WHERE instance_exec_id = :ie", q -> q.setParameter("ie", instanceExecId),
                ClaimRepository::claim);
    }

    /** The claims of these runs, one statement; a run without a claim has no element. */
    public Uni<List<Claim>> findAll(Collection<Long> instanceExecIds) {
        if (instanceExecIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return rows(CLAIMS + " WHERE instance_exec_id IN (:ies)", q -> q.setParameter("ies", instanceExecIds),
                ClaimRepository::claim);
    }

    private static Claim claim(Object[] r) {
        return new Claim(toLong(r[0]), toLong(r[1]), toLong(r[2]), (Boolean) r[3]);
    }

    public Uni<Integer> insert(Claim c) {
        return update("""
                        INSERT INTO run_claim (instance_exec_id, parent_process_id, target_batch_id, retry)
                        VALUES (:instanceExecId, :parentProcessId, :targetBatchId, :retry)""",
                q -> q.setParameter("instanceExecId", c.instanceExecId()).setParameter("parentProcessId", c.parentProcessId())
                        .setParameter("targetBatchId", c.targetBatchId()).setParameter("retry", c.retry()));
    }

    /** Whether some run of the parent claimed this target batch. */
    public Uni<Boolean> claimedFor(long parentId, long targetBatchId) {
        return value("SELECT count(*) FROM run_claim WHERE parent_process_id = :p AND target_batch_id = :t", Long.class,
                q -> q.setParameter("p", parentId).setParameter("t", targetBatchId))
                .map(count -> count.orElseThrow() > 0);
    }
}
