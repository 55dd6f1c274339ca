package io.batchyard.queue.compaction.table;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Compaction tables: registration (idempotent per name) and the list. */
@ApplicationScoped
public class TableService {

    /** A registration's outcome: the stored row and whether it was created now. */
    public record Registered(CompactionTable table, boolean created) {
    }

    private final TableRepository tables;

    public TableService(TableRepository tables) {
        this.tables = tables;
    }

    @WithTransaction
    public Uni<Registered> register(String schema, String table, int mergeIntervalSeconds, int zoneOffsetMinutes) {
        return tables.insert(schema, table, mergeIntervalSeconds, zoneOffsetMinutes).chain(created -> created.isPresent()
                ? Uni.createFrom().item(new Registered(created.get(), true))
                : tables.find(schema, table).map(existing -> new Registered(existing.orElseThrow(), false)));
    }

    @WithSession
    public Uni<Page<CompactionTable>> page(PageRequest page) {
        return tables.list(page.limit(), page.offset())
                .chain(items -> tables.count().map(total -> Page.of(items, total, page)));
    }
}
