package io.batchyard.queue.backfill;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;

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

    private static ConsumedRow map(Row r) {
        return new ConsumedRow(r.getLong("row_id"), r.getBoolean("archived"), r.getLong("source_batch_id"),
                r.getLongOrNull("target_batch_id"), r.getLong("process_id"), r.getLongOrNull("parent_process_id"),
                r.getLongOrNull("source_instance_exec_id"), r.getInt("batch_state"), r.getString("batch_marking"),
                r.getBoolean("target_failed"));
    }
}
