package io.batchyard.registry.application;

import static io.batchyard.api.CommonErrors.APPLICATION_PERMISSION;
import static io.batchyard.api.CommonErrors.NOT_FOUND;

import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Application permissions for the caller of the current request: a service method asks before it reads or changes
 * an application's processes, inside its own session so the check and the work see the same rows. Roles decide
 * which operations a caller may use at all; these checks decide on which applications.
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

    /** Fails with code 14 unless the caller holds {@code permission} on the application. */
    public Uni<ApplicationRow> onApplication(long applicationId, Permission permission) {
        return applications.find(applicationId).map(found -> require(found.orElseThrow(() ->
                NOT_FOUND.exception("application " + applicationId + " does not exist")), permission));
    }

    /** The same where an unknown application is someone else's error to report (a reference check, a 404). */
    public Uni<Void> onApplicationIfExists(long applicationId, Permission permission) {
        return applications.find(applicationId).invoke(found -> found.ifPresent(app -> require(app, permission)))
                .replaceWithVoid();
    }

    /** The same for the application a process belongs to; a process that does not exist passes (the caller 404s). */
    public Uni<Void> onProcess(long processId, Permission permission) {
        return applications.ofProcess(processId).invoke(found -> found.ifPresent(app -> require(app, permission)))
                .replaceWithVoid();
    }

    private ApplicationRow require(ApplicationRow app, Permission permission) {
        Caller caller = caller();
        if (!app.access().allows(caller, permission)) {
            throw APPLICATION_PERMISSION.exception(caller.name() + " has no " + permission.name().toLowerCase()
                    + " permission on application " + app.id() + " (" + app.name() + ")");
        }
        return app;
    }
}
