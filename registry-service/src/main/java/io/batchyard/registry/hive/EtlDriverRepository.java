package io.batchyard.registry.hive;

import io.batchyard.registry.NativeSqlRepository;
import io.batchyard.persistence.Columns;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** SQL over {@code etl_driver}; statements join the caller's session. */
@ApplicationScoped
public class EtlDriverRepository extends NativeSqlRepository {

    public Uni<Void> upsert(long processId, EtlDriver d) {
        return update("""
                        INSERT INTO etl_driver (etl_process_id, raw_table_id, base_table_id, raw_view_id, insert_type, drop_raw)
                        VALUES (:pid, :rawTableId, CAST(:baseTableId AS bigint), :rawViewId, :insertType, :dropRaw)
                        ON CONFLICT (etl_process_id) DO UPDATE SET raw_table_id = EXCLUDED.raw_table_id,
                          base_table_id = EXCLUDED.base_table_id, raw_view_id = EXCLUDED.raw_view_id,
                          insert_type = EXCLUDED.insert_type, drop_raw = EXCLUDED.drop_raw""",
                "pid", processId, "rawTableId", d.rawTableId(), "baseTableId", d.baseTableId(),
                "rawViewId", d.rawViewId(), "insertType", d.insertType(), "dropRaw", d.dropRaw())
                .replaceWithVoid();
    }

    public Uni<Optional<EtlDriver>> find(long processId) {
        return row("""
                        SELECT raw_table_id, base_table_id, raw_view_id, insert_type, drop_raw
                        FROM etl_driver WHERE etl_process_id = :id""", "id", processId)
                .map(found -> found.map(r -> new EtlDriver(Columns.toLong(r[0]), Columns.longOrNull(r[1]),
                        Columns.toLong(r[2]), Columns.toShort(r[3]), Columns.toBoolean(r[4]))));
    }

    public Uni<Boolean> delete(long processId) {
        return update("DELETE FROM etl_driver WHERE etl_process_id = :id", "id", processId).map(n -> n > 0);
    }
}
