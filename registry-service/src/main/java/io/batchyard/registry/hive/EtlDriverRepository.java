package io.batchyard.registry.hive;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** SQL over {@code etl_driver}; statements join the caller's session. */
@ApplicationScoped
public class EtlDriverRepository extends SqlRepository {

    public Uni<Void> upsert(long processId, EtlDriver d) {
        return update("""
                        INSERT INTO etl_driver (etl_process_id, raw_table_id, base_table_id, raw_view_id, insert_type, drop_raw)
                        VALUES (:pid, :rawTableId, CAST(:baseTableId AS bigint), :rawViewId, :insertType, :dropRaw)
                        ON CONFLICT (etl_process_id) DO UPDATE SET raw_table_id = EXCLUDED.raw_table_id,
                          base_table_id = EXCLUDED.base_table_id, raw_view_id = EXCLUDED.raw_view_id,
                          insert_type = EXCLUDED.insert_type, drop_raw = EXCLUDED.drop_raw""",
                Params.of("pid", processId).and("rawTableId", d.rawTableId()).and("baseTableId", d.baseTableId())
                        .and("rawViewId", d.rawViewId()).and("insertType", d.insertType())
                        .and("dropRaw", d.dropRaw()))
                .replaceWithVoid();
    }

    public Uni<Optional<EtlDriver>> find(long processId) {
        return first("""
                        SELECT raw_table_id, base_table_id, raw_view_id, insert_type, drop_raw
                        FROM etl_driver WHERE etl_process_id = :id""", Params.of("id", processId),
                EtlDriverRepository::map);
    }

    public Uni<Boolean> delete(long processId) {
        return update("DELETE FROM etl_driver WHERE etl_process_id = :id", Params.of("id", processId))
                .map(n -> n > 0);
    }

    private static EtlDriver map(Row r) {
        return new EtlDriver(r.getLong("raw_table_id"), r.getLongOrNull("base_table_id"), r.getLong("raw_view_id"),
                r.getShort("insert_type"), r.getBoolean("drop_raw"));
    }
}
