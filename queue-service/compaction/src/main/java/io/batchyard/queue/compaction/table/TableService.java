package io.batchyard.queue.compaction.table;

import static io.batchyard.queue.compaction.error.CompactionError.INVALID_TABLE_SETTINGS;
import static io.batchyard.queue.compaction.error.CompactionError.STORE_PREFIX_OVERLAP;
import static io.batchyard.queue.compaction.error.CompactionError.TABLE_EXISTS;
import static io.batchyard.queue.compaction.error.CompactionError.UNKNOWN_APPLICATION;
import static io.batchyard.queue.compaction.error.CompactionError.UNKNOWN_TABLE;

import io.batchyard.api.ApiException;
import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.queue.access.AccessChecks;
import io.batchyard.queue.compaction.store.ObjectStores;
import io.batchyard.queue.compaction.store.StoreAvailability;
import io.batchyard.queue.compaction.store.StoreLocation;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Compaction tables: registration (idempotent per name), the list, and each table's run-time settings. A table
 * belongs to an application: registering one needs write permission on it, reading a table's settings read
 * permission, changing them write permission, and the list shows the tables of applications the caller may read.
 */
@ApplicationScoped
public class TableService {

    /** The seeded application, everyone's by default: tables registered without an application go there. */
    public static final long SEEDED_APPLICATION = 1;

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
    private final AccessChecks access;

    public TableService(TableRepository tables, TableSettings.Defaults defaults, ObjectStores stores,
                        AccessChecks access) {
        this.tables = tables;
        this.defaults = defaults;
        this.stores = stores;
        this.access = access;
    }

    /** Batchyard's own registration (no caller to check) of a filesystem table of the seeded application. */
    @WithTransaction
    public Uni<Registered> register(String schema, String table, int mergeIntervalSeconds, int zoneOffsetMinutes) {
        return register(schema, table, mergeIntervalSeconds, zoneOffsetMinutes, StoreLocation.FILESYSTEM);
    }

    /** The same for a table whose objects live in {@code store}; the store of an existing table is never changed. */
    @WithTransaction
    public Uni<Registered> register(String schema, String table, int mergeIntervalSeconds, int zoneOffsetMinutes,
                                    StoreLocation store) {
        return insertOrFind(schema, table, mergeIntervalSeconds, zoneOffsetMinutes, store, SEEDED_APPLICATION);
    }

    /**
     * Registers a table of application {@code applicationId} for {@code caller}: write permission on the application
     * (338 when the caller may not even read it, as for one this service does not know). The same definition again
     * answers the table as it is; another definition under the name is 312, which describes the existing table only to
     * a caller who may read it. A new table needs a store this service has, in a bucket the deployment allows, whose
     * prefix does not nest in another table's of the bucket (328, 335, 339).
     */
    @WithTransaction
    public Uni<Registered> register(Caller caller, String schema, String table, int mergeIntervalSeconds,
                                    int zoneOffsetMinutes, StoreLocation store, long applicationId) {
        String name = schema + "." + table;
        Function<CompactionTable, Uni<Registered>> existing = t -> access.canRead(caller, t.applicationId())
                .map(readable -> {
                    if (!readable) {
                        throw TABLE_EXISTS.exception("table " + name + " is registered already");
                    }
                    if (t.mergeIntervalSeconds() != mergeIntervalSeconds || t.zoneOffsetMinutes() != zoneOffsetMinutes
                            || !t.store().equals(store) || t.applicationId() != applicationId) {
                        throw TABLE_EXISTS.exception("table " + name + " exists with merge interval "
                                + t.mergeIntervalSeconds() + " s, zone offset " + t.zoneOffsetMinutes() + " min, store "
                                + t.store() + " and application " + t.applicationId());
                    }
                    return new Registered(t, false);
                });
        return access.require(caller, applicationId, Permission.WRITE, "application " + applicationId,
                        () -> UNKNOWN_APPLICATION.exception("application " + applicationId
                                + " is not known to queue-service"))
                .chain(() -> tables.find(schema, table))
                .chain(found -> found.isPresent() ? existing.apply(found.get()) : placeable(name, store)
                        .chain(() -> insertOrFind(schema, table, mergeIntervalSeconds, zoneOffsetMinutes, store,
                                applicationId))
                        .chain(r -> r.created() ? Uni.createFrom().item(r) : existing.apply(r.table())));
    }

    /** A new table's store: one this service has, in an allowed bucket, and beside every other table's prefix. */
    private Uni<Void> placeable(String name, StoreLocation store) {
        StoreAvailability.require(stores, store, "table " + name);
        if (store.kind() != StoreLocation.Kind.S3) {
            return Uni.createFrom().voidItem();
        }
        return tables.prefixNests(store.bucket(), store.prefix()).invoke(nests -> {
            if (nests) {
                throw STORE_PREFIX_OVERLAP.exception("table " + name + ": prefix '" + store.prefix()
                        + "' nests in the prefix of another table of bucket " + store.bucket()
                        + " (their objects would share keys): use the same prefix or one beside it");
            }
        }).replaceWithVoid();
    }

    private Uni<Registered> insertOrFind(String schema, String table, int mergeIntervalSeconds, int zoneOffsetMinutes,
                                         StoreLocation store, long applicationId) {
        return tables.insert(schema, table, mergeIntervalSeconds, zoneOffsetMinutes, store, applicationId)
                .chain(created -> created.isPresent()
                        ? Uni.createFrom().item(new Registered(created.get(), true))
                        : tables.find(schema, table).map(existing -> new Registered(existing.orElseThrow(), false)));
    }

    /** The tables of the applications {@code caller} may read. */
    @WithSession
    public Uni<Page<CompactionTable>> page(Caller caller, PageRequest page) {
        return access.visibility(caller).chain(visible -> tables.list(visible, page.limit(), page.offset())
                .chain(items -> tables.count(visible).map(total -> Page.of(items, total, page))));
    }

    /** A table's settings: read permission on its application, else 311 as for a table that does not exist. */
    @WithSession
    public Uni<Settings> settings(Caller caller, long tableId) {
        return checked(caller, tableId, Permission.READ).map(this::settingsOf);
    }

    /**
     * Replaces the table's settings: write permission on its application (311 when the caller may not read it); the
     * next decisions read them, none already made changes. 327 for a zone the database does not know.
     */
    @WithTransaction
    public Uni<Settings> updateSettings(Caller caller, long tableId, TableSettings settings) {
        return checked(caller, tableId, Permission.WRITE)
                .chain(t -> settings.timeZone() == null ? Uni.createFrom().item(true)
                        : tables.zoneKnown(settings.timeZone()))
                .chain(known -> {
                    if (!known) {
                        throw INVALID_TABLE_SETTINGS.exception("timeZone " + settings.timeZone()
                                + " is not known to the database");
                    }
                    return tables.updateSettings(tableId, settings);
                })
                .map(t -> settingsOf(t.orElseThrow()));
    }

    /** The values the table's decisions use now. */
    public TableSettings.Effective effective(CompactionTable t) {
        return t.settings().effective(defaults, t.zoneOffsetMinutes());
    }

    private Uni<CompactionTable> checked(Caller caller, long tableId, Permission permission) {
        Supplier<ApiException> unknown = () -> UNKNOWN_TABLE.exception("no compaction table " + tableId);
        return tables.find(tableId).map(found -> found.orElseThrow(unknown))
                .call(t -> access.require(caller, t.applicationId(), permission, "compaction table " + tableId,
                        unknown));
    }

    private Settings settingsOf(CompactionTable t) {
        return new Settings(t.tableId(), t.schemaName(), t.tableName(), t.settings(), effective(t));
    }

    /** A table by name, whoever asks; in the caller's session. */
    public Uni<Optional<CompactionTable>> find(String schema, String table) {
        return tables.find(schema, table);
    }

    /** A table by id, whoever asks; in the caller's session. */
    public Uni<Optional<CompactionTable>> find(long tableId) {
        return tables.find(tableId);
    }
}
