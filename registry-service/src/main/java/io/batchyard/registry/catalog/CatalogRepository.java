package io.batchyard.registry.catalog;

import io.batchyard.registry.NativeSqlRepository;
import io.batchyard.eventing.persistence.Columns;
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

    public Uni<List<CatalogService.Entry>> workflowTypes() {
        return entries("SELECT workflow_type_id, workflow_type_name FROM workflow_type ORDER BY 1");
    }

    public Uni<List<CatalogService.Entry>> execStates() {
        return entries("SELECT exec_state_id, description FROM exec_status ORDER BY 1");
    }

    public Uni<List<CatalogService.Entry>> batchStates() {
        return entries("SELECT batch_state_id, description FROM batch_status ORDER BY 1");
    }

    private static Uni<List<CatalogService.Entry>> entries(String sql) {
        return rows(sql).map(list -> list.stream()
                .map(r -> new CatalogService.Entry(Columns.toInt(r[0]), Columns.string(r[1])))
                .toList());
    }
}
