package io.batchyard.registry.process;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DELETED;
import static io.batchyard.registry.RegistryError.INVALID_DEADLINES;

import io.batchyard.api.access.Permission;
import io.batchyard.registry.application.AccessGuard;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * A parent's data deadlines: reading them needs read permission on its application, setting or removing them write;
 * every change is announced as ProcessChanged (with the parent's deadlines) in the transaction that makes it.
 */
@ApplicationScoped
public class DeadlineService {

    private final DeadlineRepository deadlines;
    private final ProcessRepository processes;
    private final ProcessService processService;
    private final AccessGuard access;

    public DeadlineService(DeadlineRepository deadlines, ProcessRepository processes, ProcessService processService,
                           AccessGuard access) {
        this.deadlines = deadlines;
        this.processes = processes;
        this.processService = processService;
        this.access = access;
    }

    @WithSession
    public Uni<Deadlines> get(long processId) {
        return access.onProcess(processId, Permission.READ).chain(() -> requireProcess(processId))
                .chain(() -> deadlines.find(processId))
                .map(found -> found.orElseThrow(() -> NOT_FOUND.exception("process " + processId
                        + " has no deadlines")));
    }

    /** Sets (or replaces) the deadlines of a live parent. */
    @WithTransaction
    public Uni<Deadlines> put(Deadlines checked) {
        long processId = checked.processId();
        return access.onProcess(processId, Permission.WRITE).chain(() -> requireProcess(processId))
                .invoke(process -> {
                    if (process.deleted()) {
                        throw DELETED.exception("process " + processId + " is deleted");
                    }
                    if (process.parentProcessId() != null) {
                        throw INVALID_DEADLINES.exception("process " + processId + " is a step: deadlines belong to "
                                + "its parent " + process.parentProcessId());
                    }
                })
                .chain(() -> deadlines.upsert(checked))
                .chain(() -> processService.announceChange(processId))
                .replaceWith(checked);
    }

    @WithTransaction
    public Uni<Void> delete(long processId) {
        return access.onProcess(processId, Permission.WRITE).chain(() -> requireProcess(processId))
                .chain(() -> deadlines.delete(processId))
                .invoke(deleted -> {
                    if (!deleted) {
                        throw NOT_FOUND.exception("process " + processId + " has no deadlines");
                    }
                })
                .chain(() -> processService.announceChange(processId));
    }

    private Uni<ProcessRow> requireProcess(long processId) {
        return processes.find(processId)
                .map(found -> found.orElseThrow(() -> NOT_FOUND.exception("process " + processId + " does not exist")));
    }
}
