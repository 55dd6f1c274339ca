package io.batchyard.registry.catalog;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** SQL over the master tables. */
@ApplicationScoped
public class CatalogRepository extends SqlRepository {

    public Uni<List<ProcessType>> processTypes() {
        return list("""
                        SELECT process_type_id, process_type_name, parent_process_type_id
                        FROM process_type ORDER BY process_type_id""", Params.none(),
                r -> new ProcessType(r.getInt("process_type_id"), r.getString("process_type_name"),
                        r.getIntOrNull("parent_process_type_id")));
    }

    /**
     * Every row of {@code table} as id and label, by id. The columns are aliased, so that one mapping reads every
     * table's rows.
     */
    public Uni<List<MasterRow>> entries(MasterTable table) {
        return list("SELECT " + table.idColumn + " AS id, " + table.nameColumn + " AS name FROM " + table.table
                + " ORDER BY 1", Params.none(), CatalogRepository::master);
    }

    private static MasterRow master(Row r) {
        return new MasterRow(r.getInt("id"), r.getString("name"));
    }
}
