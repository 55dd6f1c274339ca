package io.batchyard.registry.application;

import static io.batchyard.registry.RegistryError.DUPLICATE;
import static io.batchyard.registry.RegistryError.INVALID_PERMISSION;
import static io.batchyard.registry.RegistryError.MASTER_DATA;
import static io.batchyard.registry.RegistryError.STILL_REFERENCED;

import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.persistence.InOrder;
import io.batchyard.registry.Listing;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/**
 * Applications (BDRE business domains); names are unique. A caller sees the applications it may read, and their
 * owner and permissions only where it owns them or is an administrator.
 */
@ApplicationScoped
public class ApplicationService {

    private final ApplicationRepository applications;
    private final AccessGuard access;
    private final ApplicationEvents events;

    public ApplicationService(ApplicationRepository applications, AccessGuard access, ApplicationEvents events) {
        this.applications = applications;
        this.access = access;
        this.events = events;
    }

    /**
     * Puts every application whose state was never announced on the registry topic: the seeded default application
     * on a new installation, applications from before permissions existed. Runs at start-up; two instances skip each
     * other's rows.
     */
    @WithTransaction
    public Uni<Integer> announcePending() {
        return applications.unannounced().call(pending -> InOrder.each(pending, app -> events.changed(app, false)))
                .map(List::size);
    }

    /** The caller becomes the application's owner user; {@code ownerGroup} may name the group that shares it. */
    @WithTransaction
    public Uni<ApplicationRow> create(String name, String description, String owner, String ownerGroup) {
        return requireFreeName(name, null).chain(() -> applications.insert(name, description, owner,
                access.caller().name(), ownerGroup)).call(created -> events.changed(created, false));
    }

    /** Changing an application's name or description is writing to it. */
    @WithTransaction
    public Uni<ApplicationRow> update(long id, String name, String description, String owner) {
        return access.onApplication(id, Permission.WRITE).chain(() -> requireFreeName(name, id))
                .chain(() -> applications.update(id, name, description, owner))
                .map(updated -> updated.orElseThrow(() -> AccessGuard.noApplication(id)))
                .call(updated -> events.changed(updated, false))
                .map(updated -> updated.shownTo(access.caller()));
    }

    /** Who owns the application and what each class of caller may do; the owner and administrators only. */
    @WithSession
    public Uni<ApplicationRow.Permissions> permissions(long id) {
        return access.ownerOf(id).map(ApplicationRow::permissions);
    }

    @WithTransaction
    public Uni<ApplicationRow.Permissions> setPermissions(long id, ApplicationRow.Permissions permissions) {
        for (int type : new int[] {permissions.owner(), permissions.group(), permissions.others()}) {
            if (!Permission.isType(type)) {
                throw INVALID_PERMISSION.exception("permission types are 0 (none), 4 (read), 6 (read, write) or 7"
                        + " (read, write, execute); got " + type);
            }
        }
        return access.ownerOf(id).chain(() -> applications.setPermissions(id, permissions))
                .map(updated -> updated.orElseThrow(() -> AccessGuard.noApplication(id)))
                .call(updated -> events.changed(updated, false))
                .map(ApplicationRow::permissions);
    }

    /** Refused for master data, and while processes still belong to the application. */
    @WithTransaction
    public Uni<Void> delete(long id) {
        return applications.isMasterData(id).invoke(seeded -> {
                    if (seeded) {
                        throw MASTER_DATA.exception("application " + id + " is master data seeded by the installation");
                    }
                }).chain(() -> applications.dependents(id))
                .invoke(dependents -> {
                    if (!dependents.isEmpty()) {
                        throw STILL_REFERENCED.exception("application " + id + " still has " + dependents);
                    }
                })
                .chain(() -> applications.find(id))
                .map(found -> found.orElseThrow(() -> AccessGuard.noApplication(id)))
                .call(app -> applications.delete(id))
                .call(app -> events.changed(app, true))
                .replaceWithVoid();
    }

    /** Without read permission on it, an application does not exist for the caller. */
    @WithSession
    public Uni<ApplicationRow> get(long id) {
        return access.onApplication(id, Permission.READ).map(app -> app.shownTo(access.caller()));
    }

    /** Whether the application exists, whoever may read it; joins the caller's session. */
    public Uni<Boolean> exists(long id) {
        return applications.find(id).map(Optional::isPresent);
    }

    /** The applications the caller may read, listed and counted. */
    @WithSession
    public Uni<Listing<ApplicationRow>> list(String nameContains, int limit, int offset) {
        Caller reader = access.caller();
        return applications.list(nameContains, reader, limit, offset)
                .chain(items -> applications.count(nameContains, reader).map(total -> new Listing<>(
                        items.stream().map(app -> app.shownTo(reader)).toList(), total)));
    }

    private Uni<Void> requireFreeName(String name, Long exceptId) {
        return applications.nameTaken(name, exceptId).invoke(taken -> {
            if (taken) {
                throw DUPLICATE.exception("an application named '" + name + "' already exists");
            }
        }).replaceWithVoid();
    }
}
