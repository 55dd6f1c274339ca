package io.batchyard.queue.claim;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
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
public class ClaimRepository extends SqlRepository {

    private static final String CLAIMS =
            "SELECT instance_exec_id, parent_process_id, target_batch_id, retry, backfill_id FROM run_claim";

    public Uni<Optional<Claim>> find(long instanceExecId) {
        return first(CLAIMS + " WHERE instance_exec_id = :ie", Params.of("ie", instanceExecId), ClaimRepository::map);
    }

    /** The claims of these runs, one statement; a run without a claim has no element. */
    public Uni<List<Claim>> findAll(Collection<Long> instanceExecIds) {
        if (instanceExecIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list(CLAIMS + " WHERE instance_exec_id IN (:ies)", Params.of("ies", instanceExecIds),
                ClaimRepository::map);
    }

    public Uni<Integer> insert(Claim c) {
        return update("""
                        INSERT INTO run_claim (instance_exec_id, parent_process_id, target_batch_id, retry, backfill_id)
                        VALUES (:instanceExecId, :parentProcessId, :targetBatchId, :retry, CAST(:backfill AS uuid))""",
                Params.of("instanceExecId", c.instanceExecId()).and("parentProcessId", c.parentProcessId())
                        .and("targetBatchId", c.targetBatchId()).and("retry", c.retry())
                        .and("backfill", c.backfillId()));
    }

    /** Whether some run of the parent claimed this target batch. */
    public Uni<Boolean> claimedFor(long parentId, long targetBatchId) {
        return single("SELECT count(*) FROM run_claim WHERE parent_process_id = :p AND target_batch_id = :t",
                Long.class, Params.of("p", parentId).and("t", targetBatchId)).map(count -> count > 0);
    }

    private static Claim map(Row r) {
        return new Claim(r.getLong("instance_exec_id"), r.getLong("parent_process_id"), r.getLong("target_batch_id"),
                r.getBoolean("retry"), r.getUuid("backfill_id"));
    }
}
