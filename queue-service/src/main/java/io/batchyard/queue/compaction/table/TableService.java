package io.batchyard.queue.compaction.table;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.queue.compaction.store.ObjectStores;
import io.batchyard.queue.compaction.store.StoreLocation;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** Compaction tables: registration (idempotent per name), the list, and each table's run-time settings. */
@ApplicationScoped
public class TableService {

    /** A registration's outcome: the stored row and whether it was created now. */
    public record Registered(CompactionTable table, boolean created) {
    }

    /** A table's settings as stored (null: the global default) and as decisions use them now. */
    public record Settings(long tableId, String schemaName, String tableName, TableSettings table,
                           TableSettings.Effective effective) {
    }

    private final TableRepository tables;
    private final TableSettings.Defaults defaults;
    private final ObjectStores stores;

    public TableService(TableRepository tables, TableSettings.Defaults defaults, ObjectStores stores) {
        this.tables = tables;
        this.defaults = defaults;
        this.stores = stores;
    }

    /** Whether a table may choose the S3 store here. */
    public boolean s3Available() {
        return stores.s3Available();
    }

    @WithTransaction
    public Uni<Registered> register(String schema, String table, int mergeIntervalSeconds, int zoneOffsetMinutes) {
        return register(schema, table, mergeIntervalSeconds, zoneOffsetMinutes, StoreLocation.FILESYSTEM);
    }

    /** Registers a table whose objects live in {@code store}; the store of an existing table is never changed. */
    @WithTransaction
    public Uni<Registered> register(String schema, String table, int mergeIntervalSeconds, int zoneOffsetMinutes,
                                    StoreLocation store) {
        return tables.insert(schema, table, mergeIntervalSeconds, zoneOffsetMinutes, store).chain(created -> created.isPresent()
                ? Uni.createFrom().item(new Registered(created.get(), true))
                : tables.find(schema, table).map(existing -> new Registered(existing.orElseThrow(), false)));
    }

    @WithSession
    public Uni<Page<CompactionTable>> page(PageRequest page) {
        return tables.list(page.limit(), page.offset())
                .chain(items -> tables.count().map(total -> Page.of(items, total, page)));
    }

    /** Empty when there is no such table. */
    @WithSession
    public Uni<Optional<Settings>> settings(long tableId) {
        return tables.find(tableId).map(t -> t.map(this::settingsOf));
    }

    /** Replaces the table's settings (empty: no such table); the next decisions read them, none already made changes. */
    @WithTransaction
    public Uni<Optional<Settings>> updateSettings(long tableId, TableSettings settings) {
        return tables.updateSettings(tableId, settings).map(t -> t.map(this::settingsOf));
    }

    @WithSession
    public Uni<Boolean> zoneKnown(String zone) {
        return tables.zoneKnown(zone);
    }

    /** The values the table's decisions use now. */
    public TableSettings.Effective effective(CompactionTable t) {
        return t.settings().effective(defaults, t.zoneOffsetMinutes());
    }

    private Settings settingsOf(CompactionTable t) {
        return new Settings(t.tableId(), t.schemaName(), t.tableName(), t.settings(), effective(t));
    }
}
