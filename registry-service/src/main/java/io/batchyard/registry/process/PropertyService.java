package io.batchyard.registry.process;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DELETED;

import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** Properties of a process; each change is announced as ProcessChanged in the transaction that makes it. */
@ApplicationScoped
public class PropertyService {

    private final ProcessRepository processes;
    private final PropertyRepository properties;
    private final ProcessService processService;

    public PropertyService(ProcessRepository processes, PropertyRepository properties, ProcessService processService) {
        this.processes = processes;
        this.properties = properties;
        this.processService = processService;
    }

    @WithSession
    public Uni<List<PropertyRow>> list(long processId, String configGroup) {
        return requireProcess(processId).chain(process -> properties.list(processId, configGroup));
    }

    @WithSession
    public Uni<PropertyRow> get(long processId, String key) {
        return properties.find(processId, key).map(found -> found.orElseThrow(() -> noProperty(processId, key)));
    }

    @WithTransaction
    public Uni<PropertyRow> put(PropertyRow property) {
        long processId = property.processId();
        return requireProcess(processId)
                .invoke(process -> {
                    if (process.deleted()) {
                        throw DELETED.exception("process " + processId + " is deleted");
                    }
                })
                .chain(process -> properties.upsert(property))
                .chain(() -> processService.announceChange(processId))
                .replaceWith(property);
    }

    @WithTransaction
    public Uni<Void> delete(long processId, String key) {
        return requireProcess(processId)
                .chain(process -> properties.delete(processId, key))
                .invoke(deleted -> {
                    if (!deleted) {
                        throw noProperty(processId, key);
                    }
                })
                .chain(() -> processService.announceChange(processId));
    }

    private Uni<ProcessRow> requireProcess(long processId) {
        return processes.find(processId)
                .map(found -> found.orElseThrow(() -> NOT_FOUND.exception("process " + processId + " does not exist")));
    }

    private static RuntimeException noProperty(long processId, String key) {
        return NOT_FOUND.exception("process " + processId + " has no property '" + key + "'");
    }
}
