package io.batchyard.registry.hive;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DUPLICATE;
import static io.batchyard.registry.RegistryError.STILL_REFERENCED;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.registry.Listing;
import io.batchyard.registry.application.AccessGuard;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Hive table and view DDLs, unique per database and name. Each belongs to an application: reading one needs read
 * permission there (without it the table does not exist for the caller), registering, changing or deleting one needs
 * write permission.
 */
@ApplicationScoped
public class HiveTableService {

    private final HiveTableRepository tables;
    private final AccessGuard access;

    public HiveTableService(HiveTableRepository tables, AccessGuard access) {
        this.tables = tables;
        this.access = access;
    }

    @WithTransaction
    public Uni<HiveTable> create(HiveTableRequest request) {
        return access.intoApplication(request.applicationId(), Permission.WRITE)
                .chain(() -> requireUniqueName(request, null))
                .chain(() -> tables.insert(request));
    }

    /** Moving a table to another application also needs write permission there. */
    @WithTransaction
    public Uni<HiveTable> update(long id, HiveTableRequest request) {
        return require(id, Permission.WRITE)
                .call(current -> current.applicationId() == request.applicationId() ? Uni.createFrom().voidItem()
                        : access.intoApplication(request.applicationId(), Permission.WRITE))
                .chain(() -> requireUniqueName(request, id))
                .chain(() -> tables.update(id, request))
                .map(updated -> updated.orElseThrow(() -> notFound(id)));
    }

    /** The tables of applications the caller may read. */
    @WithSession
    public Uni<Listing<HiveTable>> list(String dbName, int limit, int offset) {
        Caller reader = access.caller();
        return tables.list(dbName, reader, limit, offset)
                .chain(items -> tables.count(dbName, reader).map(total -> new Listing<>(items, total)));
    }

    @WithSession
    public Uni<HiveTable> get(long id) {
        return require(id, Permission.READ);
    }

    /** Refused while an ETL driver uses the table. */
    @WithTransaction
    public Uni<Void> delete(long id) {
        return require(id, Permission.WRITE)
                .chain(() -> tables.uses(id))
                .invoke(uses -> {
                    if (uses > 0) {
                        throw STILL_REFERENCED.exception("hive table " + id + " is used by " + uses + " ETL driver(s)");
                    }
                })
                .chain(() -> tables.delete(id))
                .invoke(deleted -> {
                    if (!deleted) {
                        throw notFound(id);
                    }
                })
                .replaceWithVoid();
    }

    /** The table, when the caller holds {@code permission} on its application; 404 when it may not even read it. */
    private Uni<HiveTable> require(long id, Permission permission) {
        return tables.find(id).map(found -> found.orElseThrow(() -> notFound(id)))
                .call(table -> access.onObjectOf(table.applicationId(), permission, "hive table " + id,
                        () -> notFound(id)));
    }

    /**
     * Names are unique over every application, so a taken name is refused whoever registered it; the refusal names
     * only the database and table name the caller sent.
     */
    private Uni<Void> requireUniqueName(HiveTableRequest r, Long exceptId) {
        return tables.nameTaken(r.dbName(), r.tableName(), exceptId).invoke(taken -> {
            if (taken) {
                throw DUPLICATE.exception("hive table " + r.dbName() + "." + r.tableName() + " is already registered");
            }
        }).replaceWithVoid();
    }

    private static ApiException notFound(long id) {
        return NOT_FOUND.exception("hive table " + id + " does not exist");
    }
}
