package io.batchyard.queue.access;

import io.batchyard.api.ApiException;
import io.batchyard.api.CommonErrors;
import io.batchyard.api.access.ApplicationAccess;
import io.batchyard.api.access.ApplicationGuard;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.readmodel.ApplicationAccessRepository;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What queue-service's use cases ask before they act: the permissions of the application an object belongs to (a
 * process's, a step's being its parent's; a compaction table's own), and which applications a caller may see in
 * lists. The rule itself is {@link ApplicationGuard}'s. Every method joins the caller's session, so a check and the
 * work it guards read the same rows; an administrator passes without a query.
 */
@ApplicationScoped
public class AccessChecks {

    private final ApplicationAccessRepository access;
    private final ProcessDefinitionRepository definitions;

    public AccessChecks(ApplicationAccessRepository access, ProcessDefinitionRepository definitions) {
        this.access = access;
        this.definitions = definitions;
    }

    /** Everything for an administrator, else the applications {@code caller} may read. */
    public Uni<Visibility> visibility(Caller caller) {
        if (caller.admin()) {
            return Uni.createFrom().item(Visibility.everything());
        }
        return access.readableBy(caller).map(readable -> Visibility.only(Set.copyOf(readable)));
    }

    /** The permissions of an application, as far as the rule needs them for {@code caller}. */
    public Uni<Optional<ApplicationAccess>> ofApplication(Caller caller, long applicationId) {
        return caller.admin() ? Uni.createFrom().item(Optional.empty()) : access.ofApplication(applicationId);
    }

    /** The permissions of the application a process belongs to: a step belongs to its parent's. */
    public Uni<Optional<ApplicationAccess>> ofProcess(Caller caller, ProcessDefinition process) {
        if (caller.admin()) {
            return Uni.createFrom().item(Optional.empty());
        }
        return access.ofProcess(process.isParent() ? process.processId() : process.parentProcessId());
    }

    /** Whether {@code caller} may read the process: false for one the read model does not know. */
    public Uni<Boolean> readsProcess(Caller caller, long processId) {
        if (caller.admin()) {
            return Uni.createFrom().item(true);
        }
        return definitions.find(processId).chain(found -> found.isEmpty() ? Uni.createFrom().item(false)
                : ofProcess(caller, found.get()).map(access -> ApplicationGuard.canRead(caller, access)));
    }

    /** {@link ApplicationGuard#require} for an object of application {@code applicationId}. */
    public Uni<Void> require(Caller caller, long applicationId, Permission permission, String object,
                             Supplier<? extends ApiException> notFound) {
        return ofApplication(caller, applicationId)
                .invoke(access -> ApplicationGuard.require(caller, access, permission, object, notFound))
                .replaceWithVoid();
    }

    /** {@link ApplicationGuard#require} for a process (a step's application is its parent's). */
    public Uni<Void> require(Caller caller, ProcessDefinition process, Permission permission,
                             Supplier<? extends ApiException> notFound) {
        return ofProcess(caller, process).invoke(access -> ApplicationGuard.require(caller, access, permission,
                "process " + process.processId(), notFound)).replaceWithVoid();
    }

    /** Whether {@code caller} may read objects of application {@code applicationId}. */
    public Uni<Boolean> canRead(Caller caller, long applicationId) {
        return ofApplication(caller, applicationId).map(access -> ApplicationGuard.canRead(caller, access));
    }

    /**
     * The rule for an object of several applications (a batch, offered to the steps of several): it is seen through
     * any of them that {@code caller} may read, and changing it needs {@code permission} on every one. False when it is
     * hidden; 403 with code 14 naming {@code object} when it is seen but a permission is missing.
     */
    public Uni<Boolean> permitsAll(Caller caller, Collection<Long> applicationIds, Permission permission,
                                   String object) {
        if (caller.admin()) {
            return Uni.createFrom().item(true);
        }
        return access.ofApplications(applicationIds).map(found -> {
            if (found.stream().noneMatch(a -> ApplicationGuard.canRead(caller, Optional.of(a)))) {
                return false;
            }
            if (found.size() < Set.copyOf(applicationIds).size()
                    || !found.stream().allMatch(a -> ApplicationGuard.allows(caller, Optional.of(a), permission))) {
                throw CommonErrors.APPLICATION_PERMISSION.exception(caller.name() + " has no "
                        + permission.name().toLowerCase() + " permission on every application of " + object);
            }
            return true;
        });
    }
}
