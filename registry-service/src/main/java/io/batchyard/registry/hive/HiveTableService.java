package io.batchyard.registry.hive;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DUPLICATE;
import static io.batchyard.registry.RegistryError.STILL_REFERENCED;

import io.batchyard.registry.Listing;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Hive table and view DDLs, unique per database and name. */
@ApplicationScoped
public class HiveTableService {

    private final HiveTableRepository tables;

    public HiveTableService(HiveTableRepository tables) {
        this.tables = tables;
    }

    @WithTransaction
    public Uni<HiveTable> create(HiveTableRequest request) {
        return requireUniqueName(request, null).chain(() -> tables.insert(request));
    }

    @WithTransaction
    public Uni<HiveTable> update(long id, HiveTableRequest request) {
        return requireUniqueName(request, id)
                .chain(() -> tables.update(id, request))
                .map(updated -> updated.orElseThrow(() -> notFound(id)));
    }

    @WithSession
    public Uni<Listing<HiveTable>> list(String dbName, int limit, int offset) {
        return tables.list(dbName, limit, offset)
                .chain(items -> tables.count(dbName).map(total -> new Listing<>(items, total)));
    }

    @WithSession
    public Uni<HiveTable> get(long id) {
        return tables.find(id).map(found -> found.orElseThrow(() -> notFound(id)));
    }

    /** Refused while an ETL driver uses the table. */
    @WithTransaction
    public Uni<Void> delete(long id) {
        return tables.uses(id)
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

    private Uni<Void> requireUniqueName(HiveTableRequest r, Long exceptId) {
        return tables.nameTaken(r.dbName(), r.tableName(), exceptId).invoke(taken -> {
            if (taken) {
                throw DUPLICATE.exception("hive table " + r.dbName() + "." + r.tableName() + " is already registered");
            }
        }).replaceWithVoid();
    }

    private static RuntimeException notFound(long id) {
        return NOT_FOUND.exception("hive table " + id + " does not exist");
    }
}
