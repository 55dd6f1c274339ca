package io.batchyard.queue.backfill;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.schemas.backfill.Reenqueued;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
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

    /**
     * What backfill {@code backfillId} already offered to these steps in place of their consumption of batch
     * {@code batchId}.
     */
    public Uni<List<Reenqueued.Row>> reenqueued(UUID backfillId, long batchId, List<Long> stepIds) {
        return list("""
                        SELECT s.queue_id, s.superseded_queue_id, q.source_batch_id, q.process_id, q.batch_marking
                        FROM backfill_supersede s
                        JOIN archived_queue old ON old.queue_id = s.superseded_queue_id
                        JOIN (SELECT queue_id, source_batch_id, process_id, batch_marking FROM consumption_queue
                              UNION ALL
                              SELECT queue_id, source_batch_id, process_id, batch_marking FROM archived_queue) q
                          ON q.queue_id = s.queue_id
                        WHERE s.backfill_id = :backfill AND old.source_batch_id = :batch
                          AND old.process_id = ANY(:steps)
                        ORDER BY q.process_id""",
                Params.of("backfill", backfillId).and("batch", batchId).and("steps", stepIds.toArray(Long[]::new)),
                ImpactRepository::reenqueued);
    }

    /**
     * Offers batch {@code offered} to each of these steps that consumed batch {@code batchId}: a New row that supersedes
     * the step's latest archived consumption of it, linked to it, with that consumption's producer and marking. A step
     * that never consumed the batch, or for which the offered batch already waits, gets nothing.
     */
    public Uni<List<Reenqueued.Row>> reenqueue(UUID backfillId, long batchId, long offered, List<Long> stepIds) {
        return list("""
                        WITH old AS (SELECT DISTINCT ON (process_id) queue_id, source_process_id, batch_marking,
                                       process_id
                                     FROM archived_queue
                                     WHERE source_batch_id = :batch AND process_id = ANY(:steps)
                                     ORDER BY process_id, queue_id DESC),
                        offered AS (
                          INSERT INTO consumption_queue (source_batch_id, source_process_id, batch_state, batch_marking,
                            process_id)
                          SELECT :offered, source_process_id, 0, batch_marking, process_id FROM old
                          ON CONFLICT (source_batch_id, process_id) DO NOTHING
                          RETURNING queue_id, source_batch_id, process_id, batch_marking),
                        linked AS (
                          INSERT INTO backfill_supersede (queue_id, superseded_queue_id, backfill_id)
                          SELECT offered.queue_id, old.queue_id, :backfill
                          FROM offered JOIN old ON old.process_id = offered.process_id)
                        SELECT offered.queue_id, old.queue_id AS superseded_queue_id, offered.source_batch_id,
                          offered.process_id, offered.batch_marking
                        FROM offered JOIN old ON old.process_id = offered.process_id
                        ORDER BY offered.process_id""",
                Params.of("backfill", backfillId).and("batch", batchId).and("offered", offered)
                        .and("steps", stepIds.toArray(Long[]::new)),
                ImpactRepository::reenqueued);
    }

    private static Reenqueued.Row reenqueued(Row r) {
        return new Reenqueued.Row(r.getLong("queue_id"), r.getLong("superseded_queue_id"), r.getLong("source_batch_id"),
                r.getLong("process_id"), r.getString("batch_marking"));
    }

    private static ConsumedRow map(Row r) {
        return new ConsumedRow(r.getLong("row_id"), r.getBoolean("archived"), r.getLong("source_batch_id"),
                r.getLongOrNull("target_batch_id"), r.getLong("process_id"), r.getLongOrNull("parent_process_id"),
                r.getLongOrNull("source_instance_exec_id"), r.getInt("batch_state"), r.getString("batch_marking"),
                r.getBoolean("target_failed"));
    }
}
