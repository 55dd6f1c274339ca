package io.batchyard.registry.hive;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.Permission;
import io.batchyard.registry.application.AccessGuard;
import io.batchyard.registry.process.ProcessService;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Supplier;
import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.INVALID_PARENT;
import static io.batchyard.registry.RegistryError.UNKNOWN_REFERENCE;

/** Links a data-load parent process to its raw table, raw view and base table. */
@ApplicationScoped
public class EtlDriverService {

    private final EtlDriverRepository drivers;
    private final HiveTableRepository tables;
    private final ProcessService processes;
    private final AccessGuard access;

    public EtlDriverService(EtlDriverRepository drivers, HiveTableRepository tables, ProcessService processes,
                            AccessGuard access) {
        this.drivers = drivers;
        this.tables = tables;
        this.processes = processes;
        this.access = access;
    }

    /** Sets the driver of a live parent process; returns it with defaults applied. */
    @WithTransaction
    public Uni<EtlDriver> put(long processId, EtlDriver d) {
        EtlDriver normalised = new EtlDriver(d.rawTableId(), d.baseTableId(), d.rawViewId(),
                d.insertType() == null ? 1 : d.insertType(), d.dropRaw() != null && d.dropRaw());
        return access.onProcess(processId, Permission.WRITE).chain(() -> processes.find(processId))
                .invoke(found -> {
                    var process = found.orElseThrow(() -> NOT_FOUND.exception("process " + processId
                            + " does not exist"));
                    if (!process.isParent() || process.deleted()) {
                        throw INVALID_PARENT.exception("an ETL driver belongs to a live parent process; " + processId
                                + " is not one");
                    }
                })
                .chain(() -> requireTable(normalised.rawTableId(), "TABLE"))
                .chain(() -> requireTable(normalised.rawViewId(), "VIEW"))
                .chain(() -> normalised.baseTableId() == null ? Uni.createFrom().voidItem()
                        : requireTable(normalised.baseTableId(), "TABLE"))
                .chain(() -> drivers.upsert(processId, normalised))
                .replaceWith(normalised);
    }

    @WithSession
    public Uni<EtlDriver> get(long processId) {
        return access.onProcess(processId, Permission.READ).chain(() -> drivers.find(processId))
                .map(found -> found.orElseThrow(() -> noDriver(processId)));
    }

    @WithTransaction
    public Uni<Void> delete(long processId) {
        return access.onProcess(processId, Permission.WRITE).chain(() -> drivers.delete(processId)).invoke(deleted -> {
            if (!deleted) {
                throw noDriver(processId);
            }
        }).replaceWithVoid();
    }

    /** A table the driver names: one of an application the caller may not read is refused as unknown. */
    private Uni<Void> requireTable(long tableId, String type) {
        Supplier<ApiException> unknown = () -> UNKNOWN_REFERENCE.exception("hive table " + tableId + " does not exist");
        return tables.find(tableId).map(found -> found.orElseThrow(unknown))
                .call(table -> access.onObjectOf(table.applicationId(), Permission.READ, "hive table " + tableId,
                        unknown))
                .invoke(table -> {
                    if (!table.type().equals(type)) {
                        throw UNKNOWN_REFERENCE.exception("hive table " + tableId + " is a " + table.type()
                                + ", expected a " + type);
                    }
                }).replaceWithVoid();
    }

    private static RuntimeException noDriver(long processId) {
        return NOT_FOUND.exception("process " + processId + " has no ETL driver");
    }
}
