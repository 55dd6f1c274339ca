package io.batchyard.registry.catalog;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;

/**
 * Master data (process types, workflow types, exec and batch states). It changes only through migrations, so it is
 * read once and kept.
 */
@ApplicationScoped
public class Catalog {

    /** A code/label pair of the small master tables. */
    public record Entry(int id, String name) {
    }

    @Inject
    Jdbi jdbi;

    private volatile Map<Integer, ProcessType> processTypes;
    private volatile Map<Integer, Entry> workflowTypes;

    public Map<Integer, ProcessType> processTypes() {
        Map<Integer, ProcessType> local = processTypes;
        if (local == null) {
            Map<Integer, ProcessType> loaded = new LinkedHashMap<>();
            jdbi.withHandle(h -> h.createQuery("""
                            SELECT process_type_id, process_type_name, parent_process_type_id
                            FROM process_type ORDER BY process_type_id""")
                    .map((rs, ctx) -> new ProcessType(rs.getInt(1), rs.getString(2),
                            rs.getObject(3) == null ? null : rs.getInt(3)))
                    .list()).forEach(t -> loaded.put(t.id(), t));
            local = Map.copyOf(loaded);
            processTypes = local;
        }
        return local;
    }

    public List<ProcessType> processTypeList() {
        return processTypes().values().stream().sorted(java.util.Comparator.comparingInt(ProcessType::id)).toList();
    }

    public Map<Integer, Entry> workflowTypes() {
        Map<Integer, Entry> local = workflowTypes;
        if (local == null) {
            local = entries("SELECT workflow_type_id, workflow_type_name FROM workflow_type ORDER BY 1");
            workflowTypes = local;
        }
        return local;
    }

    public List<Entry> execStates() {
        return List.copyOf(entries("SELECT exec_state_id, description FROM exec_status ORDER BY 1").values());
    }

    public List<Entry> batchStates() {
        return List.copyOf(entries("SELECT batch_state_id, description FROM batch_status ORDER BY 1").values());
    }

    private Map<Integer, Entry> entries(String sql) {
        Map<Integer, Entry> result = new LinkedHashMap<>();
        jdbi.withHandle(h -> h.createQuery(sql).map((rs, ctx) -> new Entry(rs.getInt(1), rs.getString(2)))
                .list()).forEach(e -> result.put(e.id(), e));
        return result;
    }
}
