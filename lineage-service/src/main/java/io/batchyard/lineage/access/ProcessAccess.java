package io.batchyard.lineage.access;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.ApplicationGuard;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.readmodel.ApplicationAccessRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The application permission of lineage's objects: a query, a run, a batch or a process graph belongs to the
 * application of the process it comes from (a step's is its parent's), as the registry announced it. The rule is
 * {@link ApplicationGuard}'s; this only finds the permissions it decides on. Every method joins the caller's session,
 * so the check and the work read the same rows.
 */
@ApplicationScoped
public class ProcessAccess {

    private final ApplicationAccessRepository applications;
    private final AccessRepository processes;

    public ProcessAccess(ApplicationAccessRepository applications, AccessRepository processes) {
        this.applications = applications;
        this.processes = processes;
    }

    /**
     * Passes when {@code caller} holds {@code permission} on the application of {@code processId}; otherwise
     * {@code notFound} when it may not read it, else 403 (code 14) naming {@code object}.
     */
    public Uni<Void> require(Caller caller, long processId, Permission permission, String object,
                             Supplier<? extends ApiException> notFound) {
        if (caller.admin()) {
            return Uni.createFrom().voidItem();
        }
        return applications.ofProcess(processId)
                .invoke(access -> ApplicationGuard.require(caller, access, permission, object, notFound))
                .replaceWithVoid();
    }

    /** What {@code caller} may read, for a list or a graph to keep its rows to. */
    public Uni<Readable> readable(Caller caller) {
        if (caller.admin()) {
            return Uni.createFrom().item(Readable.EVERYTHING);
        }
        return applications.readableBy(caller).map(ids -> new Readable(false, ids));
    }

    /** Which of {@code processIds} {@code caller} may read. */
    public Uni<Predicate<Long>> readableAmong(Caller caller, Collection<Long> processIds) {
        if (caller.admin()) {
            return Uni.createFrom().item(id -> true);
        }
        return readable(caller).chain(reader -> processes.readableAmong(reader, processIds))
                .map(found -> (Predicate<Long>) found::contains);
    }
}
