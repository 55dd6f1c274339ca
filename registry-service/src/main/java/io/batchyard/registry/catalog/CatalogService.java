package io.batchyard.registry.catalog;

import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Master data (process types, workflow types, exec and batch states). Types change only through migrations, so they
 * are read once and kept; a caller inside a transaction reads them in its own session.
 */
@ApplicationScoped
public class CatalogService {

    /** A code/label pair of the small master tables. */
    public record Entry(int id, String name) {
    }

    private final CatalogRepository catalog;

    private volatile Map<Integer, ProcessType> processTypes;
    private volatile Map<Integer, Entry> workflowTypes;

    public CatalogService(CatalogRepository catalog) {
        this.catalog = catalog;
    }

    @WithSession
    public Uni<Map<Integer, ProcessType>> processTypes() {
        Map<Integer, ProcessType> cached = processTypes;
        if (cached != null) {
            return Uni.createFrom().item(cached);
        }
        return catalog.processTypes().map(types -> {
            Map<Integer, ProcessType> loaded = new LinkedHashMap<>();
            types.forEach(t -> loaded.put(t.id(), t));
            processTypes = loaded;
            return loaded;
        });
    }

    @WithSession
    public Uni<List<ProcessType>> processTypeList() {
        return processTypes().map(types -> List.copyOf(types.values()));
    }

    @WithSession
    public Uni<Map<Integer, Entry>> workflowTypes() {
        Map<Integer, Entry> cached = workflowTypes;
        if (cached != null) {
            return Uni.createFrom().item(cached);
        }
        return catalog.workflowTypes().map(entries -> {
            Map<Integer, Entry> loaded = new LinkedHashMap<>();
            entries.forEach(e -> loaded.put(e.id(), e));
            workflowTypes = loaded;
            return loaded;
        });
    }

    @WithSession
    public Uni<List<Entry>> execStates() {
        return catalog.execStates();
    }

    @WithSession
    public Uni<List<Entry>> batchStates() {
        return catalog.batchStates();
    }
}
