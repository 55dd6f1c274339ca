package io.batchyard.registry.catalog;

import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Master data (process types, workflow types, exec, batch and deploy states, permission types, lineage node and query
 * types). It changes only through migrations. The types the tree rules look up on every change are read once and
 * kept; a caller inside a transaction reads them in its own session. The other tables are small and read when asked.
 */
@ApplicationScoped
public class CatalogService {

    /** A code/label pair of the small master tables. */
    public record Entry(int id, String name) {
    }

    private final CatalogRepository catalog;

    private final AtomicReference<Map<Integer, ProcessType>> processTypes = new AtomicReference<>();
    private final AtomicReference<Map<Integer, Entry>> workflowTypes = new AtomicReference<>();

    public CatalogService(CatalogRepository catalog) {
        this.catalog = catalog;
    }

    @WithSession
    public Uni<Map<Integer, ProcessType>> processTypes() {
        return cached(processTypes, catalog::processTypes, ProcessType::id);
    }

    @WithSession
    public Uni<List<ProcessType>> processTypeList() {
        return processTypes().map(types -> List.copyOf(types.values()));
    }

    @WithSession
    public Uni<Map<Integer, Entry>> workflowTypes() {
        return cached(workflowTypes, () -> entries(MasterTable.WORKFLOW_TYPES), Entry::id);
    }

    /** A master table that is a plain id/label list, by id. */
    @WithSession
    public Uni<List<Entry>> entries(MasterTable table) {
        return catalog.entries(table).map(rows -> rows.stream().map(r -> new Entry(r.id(), r.name())).toList());
    }

    /** The cached map, or the rows loaded (in the caller's session) and kept, by id in their order. */
    private static <T> Uni<Map<Integer, T>> cached(AtomicReference<Map<Integer, T>> cache,
                                                   Supplier<Uni<List<T>>> load, Function<T, Integer> id) {
        Map<Integer, T> cached = cache.get();
        if (cached != null) {
            return Uni.createFrom().item(cached);
        }
        return load.get().map(rows -> {
            Map<Integer, T> loaded = new LinkedHashMap<>();
            rows.forEach(row -> loaded.put(id.apply(row), row));
            Map<Integer, T> kept = Collections.unmodifiableMap(loaded);
            cache.set(kept);
            return kept;
        });
    }
}
