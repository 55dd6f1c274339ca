package io.batchyard.registry.application;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DUPLICATE;
import static io.batchyard.registry.RegistryError.STILL_REFERENCED;

import io.batchyard.registry.Listing;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Applications (BDRE business domains); names are unique. */
@ApplicationScoped
public class ApplicationService {

    private final ApplicationRepository applications;

    public ApplicationService(ApplicationRepository applications) {
        this.applications = applications;
    }

    @WithTransaction
    public Uni<ApplicationRow> create(String name, String description, String owner) {
        return requireFreeName(name, null).chain(() -> applications.insert(name, description, owner));
    }

    @WithTransaction
    public Uni<ApplicationRow> update(long id, String name, String description, String owner) {
        return requireFreeName(name, id)
                .chain(() -> applications.update(id, name, description, owner))
                .map(updated -> updated.orElseThrow(() -> notFound(id)));
    }

    /** Refused while processes still belong to the application. */
    @WithTransaction
    public Uni<Void> delete(long id) {
        return applications.processCount(id)
                .invoke(processes -> {
                    if (processes > 0) {
                        throw STILL_REFERENCED.exception("application " + id + " still has " + processes
                                + " process(es)");
                    }
                })
                .chain(() -> applications.delete(id))
                .invoke(deleted -> {
                    if (!deleted) {
                        throw notFound(id);
                    }
                })
                .replaceWithVoid();
    }

    @WithSession
    public Uni<ApplicationRow> get(long id) {
        return applications.find(id).map(found -> found.orElseThrow(() -> notFound(id)));
    }

    @WithSession
    public Uni<Listing<ApplicationRow>> list(String nameContains, int limit, int offset) {
        return applications.list(nameContains, limit, offset)
                .chain(items -> applications.count(nameContains).map(total -> new Listing<>(items, total)));
    }

    private Uni<Void> requireFreeName(String name, Long exceptId) {
        return applications.nameTaken(name, exceptId).invoke(taken -> {
            if (taken) {
                throw DUPLICATE.exception("an application named '" + name + "' already exists");
            }
        }).replaceWithVoid();
    }

    private static RuntimeException notFound(long id) {
        return NOT_FOUND.exception("application " + id + " does not exist");
    }
}
