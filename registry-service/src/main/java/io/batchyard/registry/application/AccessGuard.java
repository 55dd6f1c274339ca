package io.batchyard.registry.application;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.STEP_APPLICATION;
import static io.batchyard.registry.RegistryError.UNKNOWN_REFERENCE;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.ApplicationGuard;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Application permissions for the caller of the current request, through the shared rule ({@link ApplicationGuard}):
 * an object of an application the caller may not read answers as if it did not exist (the object's own "not found"),
 * one it may read but not change is refused with code 14 naming only that object. A service method asks before it
 * reads or changes an application's objects, inside its own session so the check and the work see the same rows.
 * Roles decide which operations a caller may use at all; these checks decide on which applications.
 */
@ApplicationScoped
public class AccessGuard {

    private final SecurityIdentity identity;
    private final ApplicationRepository applications;

    public AccessGuard(SecurityIdentity identity, ApplicationRepository applications) {
        this.identity = identity;
        this.applications = applications;
    }

    public Caller caller() {
        return Caller.of(identity);
    }

    /** The application itself: 404 when it does not exist or the caller may not read it. */
    public Uni<ApplicationRow> onApplication(long applicationId, Permission permission) {
        return applications.find(applicationId).map(found -> {
            ApplicationRow app = found.orElseThrow(() -> noApplication(applicationId));
            ApplicationGuard.require(caller(), Optional.of(app.access()), permission, "application " + applicationId,
                    () -> noApplication(applicationId));
            return app;
        });
    }

    /** The application's owner or an administrator, who may read and change its permissions. */
    public Uni<ApplicationRow> ownerOf(long applicationId) {
        return applications.find(applicationId).map(found -> {
            ApplicationRow app = found.orElseThrow(() -> noApplication(applicationId));
            ApplicationGuard.requireOwner(caller(), Optional.of(app.access()), "application " + applicationId,
                    () -> noApplication(applicationId));
            return app;
        });
    }

    /**
     * The application a new object is put in, or an object is moved to: one that does not exist, or that the caller
     * may not read, is an unknown reference (422, code 201).
     */
    public Uni<Void> intoApplication(long applicationId, Permission permission) {
        return applications.find(applicationId).invoke(found -> ApplicationGuard.require(caller(),
                        found.map(ApplicationRow::access), permission, "application " + applicationId,
                        () -> UNKNOWN_REFERENCE.exception("application " + applicationId + " does not exist")))
                .replaceWithVoid();
    }

    /**
     * A new child of an existing parent (a step of a process, a step template of a template), which belongs to the
     * parent's application: write permission there, {@code notFound} when the caller may not even read the parent,
     * and the child naming that same application (225), never another.
     */
    public Uni<Void> intoParent(long parentApplicationId, long childApplicationId, String parent,
                                Supplier<? extends ApiException> notFound) {
        return onObjectOf(parentApplicationId, Permission.WRITE, parent, notFound).invoke(() -> {
            if (childApplicationId != parentApplicationId) {
                throw STEP_APPLICATION.exception("a step belongs to its parent's application: " + parent
                        + " is in application " + parentApplicationId + ", not " + childApplicationId);
            }
        });
    }

    /**
     * An object that exists and belongs to application {@code applicationId}: {@code notFound} when the caller may not
     * read it, 403 (code 14) naming {@code object} when it may read but lacks {@code permission}.
     */
    public Uni<Void> onObjectOf(long applicationId, Permission permission, String object,
                                Supplier<? extends ApiException> notFound) {
        return applications.find(applicationId).invoke(found -> ApplicationGuard.require(caller(),
                found.map(ApplicationRow::access), permission, object, notFound)).replaceWithVoid();
    }

    /**
     * The same for a process, by id, with its own 404; a process that does not exist passes (the caller answers its
     * 404). A step's application is its parent's.
     */
    public Uni<Void> onProcess(long processId, Permission permission) {
        return applications.ofProcess(processId).invoke(found -> found.ifPresent(app -> ApplicationGuard.require(
                caller(), Optional.of(app.access()), permission, "process " + processId,
                () -> NOT_FOUND.exception("process " + processId + " does not exist")))).replaceWithVoid();
    }

    /** The applications among {@code applicationIds} whose objects the caller may read. */
    public Uni<Set<Long>> readable(Collection<Long> applicationIds) {
        Caller caller = caller();
        return applications.findAll(applicationIds).map(found -> found.stream()
                .filter(app -> ApplicationGuard.canRead(caller, Optional.of(app.access())))
                .map(ApplicationRow::id)
                .collect(Collectors.toSet()));
    }

    static ApiException noApplication(long applicationId) {
        return NOT_FOUND.exception("application " + applicationId + " does not exist");
    }
}
