package io.batchyard.queue.backfill;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.schemas.backfill.Reenqueued;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The reads of the impact walk over the consumption queue and its archive; each joins the caller's session. A row's
 * parent comes from the read model (a step's parent), its consuming run from the batch its target is bound to.
 */
@ApplicationScoped
public class ImpactRepository extends SqlRepository {

    private static final String ROWS = """
            SELECT r.row_id, r.archived, r.source_batch_id, r.target_batch_id, r.process_id, d.parent_process_id,
              t.source_instance_exec_id, r.batch_state, r.batch_marking, t.failed_at IS NOT NULL AS target_failed
            FROM (SELECT queue_id AS row_id, false AS archived, source_batch_id, target_batch_id, process_id,
                    batch_state, batch_marking FROM consumption_queue WHERE %1$s
                  UNION ALL
                  SELECT queue_id, true, source_batch_id, target_batch_id, process_id, batch_state, batch_marking
                    FROM archived_queue WHERE %1$s) r
            LEFT JOIN process_definition d ON d.process_id = r.process_id
            LEFT JOIN batch t ON t.batch_id = r.target_batch_id
            """;

    /** Every row, queued or archived, that offers one of these batches to a step. */
    public Uni<List<ConsumedRow>> consumersOf(Collection<Long> batchIds) {
        if (batchIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list(ROWS.formatted("source_batch_id = ANY(CAST(:batches AS bigint[]))") + " ORDER BY r.row_id",
                Params.of("batches", batchIds.toArray(Long[]::new)), ImpactRepository::map);
    }

    /** The input rows of these runs: every row bound to the target batch each run is bound to now. */
    public Uni<List<ConsumedRow>> inputsOf(Collection<Long> runIds) {
        if (runIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list(ROWS.formatted("""
                        target_batch_id IN (SELECT batch_id FROM batch
                                              WHERE source_instance_exec_id = ANY(CAST(:runs AS bigint[])))""")
                        + " ORDER BY r.row_id",
                Params.of("runs", runIds.toArray(Long[]::new)), ImpactRepository::map);
    }

    /** What backfill {@code backfillId} already re-enqueued of batch {@code batchId} for step {@code stepId}. */
    public Uni<Optional<Reenqueued>> reenqueued(UUID backfillId, long batchId, long stepId) {
        return first("""
                        SELECT s.queue_id, s.superseded_queue_id, q.source_batch_id, q.process_id, q.batch_marking
                        FROM backfill_supersede s
                        JOIN (SELECT queue_id, source_batch_id, process_id, batch_marking FROM consumption_queue
                              UNION ALL
                              SELECT queue_id, source_batch_id, process_id, batch_marking FROM archived_queue) q
                          ON q.queue_id = s.queue_id
                        WHERE s.backfill_id = :backfill AND q.source_batch_id = :batch AND q.process_id = :step""",
                Params.of("backfill", backfillId).and("batch", batchId).and("step", stepId),
                ImpactRepository::reenqueued);
    }

    /**
     * Offers the batch to the step again as a New row that supersedes the step's latest archived consumption of it,
     * and links the two; empty when the step never consumed the batch or the batch already waits for it.
     */
    public Uni<Optional<Reenqueued>> reenqueue(UUID backfillId, long batchId, long stepId) {
        return first("""
                        WITH old AS (SELECT queue_id, source_process_id, batch_marking FROM archived_queue
                                     WHERE source_batch_id = :batch AND process_id = :step
                                     ORDER BY queue_id DESC LIMIT 1),
                        offered AS (
                          INSERT INTO consumption_queue (source_batch_id, source_process_id, batch_state, batch_marking,
                            process_id)
                          SELECT :batch, source_process_id, 0, batch_marking, :step FROM old
                          ON CONFLICT (source_batch_id, process_id) DO NOTHING
                          RETURNING queue_id, source_batch_id, process_id, batch_marking),
                        linked AS (
                          INSERT INTO backfill_supersede (queue_id, superseded_queue_id, backfill_id)
                          SELECT offered.queue_id, old.queue_id, :backfill FROM offered, old)
                        SELECT offered.queue_id, old.queue_id AS superseded_queue_id, offered.source_batch_id,
                          offered.process_id, offered.batch_marking
                        FROM offered, old""",
                Params.of("backfill", backfillId).and("batch", batchId).and("step", stepId),
                ImpactRepository::reenqueued);
    }

    private static Reenqueued reenqueued(Row r) {
        return new Reenqueued(r.getLong("queue_id"), r.getLong("superseded_queue_id"), r.getLong("source_batch_id"),
                r.getLong("process_id"), r.getString("batch_marking"));
    }

    private static ConsumedRow map(Row r) {
        return new ConsumedRow(r.getLong("row_id"), r.getBoolean("archived"), r.getLong("source_batch_id"),
                r.getLongOrNull("target_batch_id"), r.getLong("process_id"), r.getLongOrNull("parent_process_id"),
                r.getLongOrNull("source_instance_exec_id"), r.getInt("batch_state"), r.getString("batch_marking"),
                r.getBoolean("target_failed"));
    }
}
