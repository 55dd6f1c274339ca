package io.batchyard.execution.access;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.ApplicationAccess;
import io.batchyard.api.access.ApplicationGuard;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.readmodel.ApplicationAccessRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What a caller holds on a process's application, as registry-service announced it (a step's is its parent's): read
 * to see the process and everything this service keeps about it (runs, their output, its log, deployments, trigger,
 * run policy), execute to make lifecycle calls for it or to operate its stand-alone runs. The rule is
 * {@link ApplicationGuard}'s: a caller without read is told the process (or the run, deployment, ... asked for) does
 * not exist, with the operation's own "not found" for it, so that a refusal never confirms another team's object; one
 * with read but not execute gets 403 code 14. An application whose permissions never arrived is for administrators
 * only, and so is a process this service does not know: the operation's "not found" answers for it as it would.
 * Joins the caller's session.
 */
@ApplicationScoped
public class ProcessPermission {

    private final ApplicationAccessRepository access;

    public ProcessPermission(ApplicationAccessRepository access) {
        this.access = access;
    }

    /**
     * Passes when {@code caller} holds {@code permission} on the application of {@code processId}; otherwise throws
     * {@code notFound} (no read) or 403 code 14.
     */
    public Uni<Void> require(Caller caller, long processId, Permission permission,
                             Supplier<? extends ApiException> notFound) {
        if (caller.admin()) {
            return Uni.createFrom().voidItem();
        }
        return access.ofProcess(processId).invoke(found -> requireGiven(caller, processId, found, permission, notFound))
                .replaceWithVoid();
    }

    /** Whether {@code caller} holds {@code permission} on the application of {@code processId}. */
    public Uni<Boolean> allows(Caller caller, long processId, Permission permission) {
        if (caller.admin()) {
            return Uni.createFrom().item(true);
        }
        return access.ofProcess(processId).map(found -> ApplicationGuard.allows(caller, found, permission));
    }

    /**
     * The same for a process whose application's permissions the caller read with its definition (empty when they
     * never arrived): no read at all.
     */
    public void requireGiven(Caller caller, long processId, Optional<ApplicationAccess> found, Permission permission,
                             Supplier<? extends ApiException> notFound) {
        ApplicationGuard.require(caller, found, permission, "process " + processId, notFound);
    }

    /**
     * The applications whose objects a list shows {@code caller}: empty for an administrator, who sees every object
     * (whatever application it belongs to, known here or not).
     */
    public Uni<Optional<List<Long>>> readable(Caller caller) {
        if (caller.admin()) {
            return Uni.createFrom().item(Optional.empty());
        }
        return access.readableBy(caller).map(Optional::of);
    }
}
