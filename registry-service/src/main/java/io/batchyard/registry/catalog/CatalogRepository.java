package io.batchyard.registry.catalog;

import io.batchyard.registry.NativeSqlRepository;
import io.batchyard.persistence.Columns;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** SQL over the master tables. */
@ApplicationScoped
public class CatalogRepository extends NativeSqlRepository {

    public Uni<List<ProcessType>> processTypes() {
        return rows("""
                        SELECT process_type_id, process_type_name, parent_process_type_id
                        FROM process_type ORDER BY process_type_id""")
                .map(list -> list.stream()
                        .map(r -> new ProcessType(Columns.toInt(r[0]), Columns.string(r[1]), Columns.intOrNull(r[2])))
                        .toList());
    }

    /** Every row of {@code table} as id and label, by id. */
    public Uni<List<CatalogService.Entry>> entries(MasterTable table) {
        return rows("SELECT " + table.idColumn + ", " + table.nameColumn + " FROM " + table.table + " ORDER BY 1")
                .map(list -> list.stream()
                        .map(r -> new CatalogService.Entry(Columns.toInt(r[0]), Columns.string(r[1])))
                        .toList());
    }
}
