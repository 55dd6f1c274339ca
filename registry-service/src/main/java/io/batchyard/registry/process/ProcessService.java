package io.batchyard.registry.process;

import io.batchyard.api.ChosenIds;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.registry.Listing;
import io.batchyard.registry.Unis;
import io.batchyard.registry.application.AccessGuard;
import io.batchyard.registry.application.ApplicationRepository;
import io.batchyard.registry.catalog.CatalogService;
import io.batchyard.registry.server.ServerRepository;
import io.batchyard.registry.server.ServerRow;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DELETED;
import static io.batchyard.registry.RegistryError.DUPLICATE;
import static io.batchyard.registry.RegistryError.ID_OUT_OF_RANGE;
import static io.batchyard.registry.RegistryError.STALE_VERSION;
import static io.batchyard.registry.RegistryError.STILL_REFERENCED;
import static io.batchyard.registry.RegistryError.UNKNOWN_REFERENCE;
import static io.batchyard.registry.RegistryError.UNKNOWN_SERVER;

/**
 * Creates, changes and deletes processes. Each change runs in one transaction ({@code @WithTransaction}) that locks the
 * tree's parent row, validates the tree as it will be, writes it, and appends the event to the outbox. The methods
 * without a transaction of their own join the caller's: a template instantiation builds a whole tree in one.
 */
@ApplicationScoped
public class ProcessService {

    private final ProcessRepository processes;
    private final ApplicationRepository applications;
    private final CatalogService catalog;
    private final ProcessEvents events;
    private final AccessGuard access;
    private final ServerRepository servers;

    public ProcessService(ProcessRepository processes, ApplicationRepository applications, CatalogService catalog,
                          ProcessEvents events, AccessGuard access, ServerRepository servers) {
        this.processes = processes;
        this.applications = applications;
        this.catalog = catalog;
        this.events = events;
        this.access = access;
        this.servers = servers;
    }

    @WithTransaction
    public Uni<ProcessRow> create(ProcessApi.CreateProcess request) {
        return insert(ProcessMapping.draft(request, null))
                .call(created -> events.registered(created.treeId(), List.of(created.processId())));
    }

    /**
     * Inserts one process in the caller's transaction without announcing it (whole trees are announced once). The
     * caller needs write permission on the process's application.
     */
    public Uni<ProcessRow> insert(ProcessDraft draft) {
        return requireApplication(draft.applicationId(), Permission.WRITE).chain(() -> requireChoosableId(draft))
                .chain(() -> draft.isParent() ? Uni.createFrom().item(Optional.<ProcessRow>empty())
                        : processes.lock(draft.parentProcessId()))
                .call(parent -> checkReferences(draft))
                .call(parent -> (draft.isParent() ? Uni.createFrom().item(List.<ProcessRow>of())
                        : stepsOf(draft.parentProcessId()))
                        .chain(steps -> validate(draft, parent, steps)))
                .chain(parent -> processes.insert(draft))
                .chain(processes::find)
                .map(Optional::orElseThrow);
    }

    @WithTransaction
    public Uni<ProcessRow> update(long processId, ProcessApi.PatchProcess patch) {
        return access.onProcess(processId, Permission.WRITE)
                .chain(() -> patch.applicationId == null ? Uni.createFrom().voidItem()
                        : requireApplication(patch.applicationId, Permission.WRITE))
                .chain(() -> apply(processId, patch))
                .call(updated -> events.changed(updated.treeId(), List.of(processId)));
    }

    /** Validates and applies a patch in the caller's transaction without announcing it. */
    public Uni<ProcessRow> apply(long processId, ProcessApi.PatchProcess patch) {
        return lockTreeOf(processId).chain(current -> {
            if (current.deleted()) {
                throw DELETED.exception("process " + processId + " is deleted");
            }
            if (patch.version != null && patch.version != current.version()) {
                throw STALE_VERSION.exception("process " + processId + " is at version " + current.version()
                        + ", not " + patch.version);
            }
            ProcessDraft draft = ProcessMapping.draft(patch, current);
            Uni<Optional<ProcessRow>> parent = current.isParent() ? Uni.createFrom().item(Optional.empty())
                    : processes.find(current.parentProcessId());
            return checkReferences(draft)
                    .chain(() -> parent)
                    .call(p -> stepsOf(current.treeId()).chain(steps -> validate(draft, p, steps)))
                    .chain(p -> processes.update(processId, current.version(), draft))
                    .invoke(applied -> {
                        if (!applied) {
                            throw STALE_VERSION.exception("process " + processId + " changed concurrently; retry");
                        }
                    })
                    .chain(applied -> processes.find(processId))
                    .map(Optional::orElseThrow);
        });
    }

    /**
     * Soft-deletes a process; deleting a parent deletes its steps. Refused while a live process still points at it,
     * so no tree is left with a dangling next process or enqueuing process.
     */
    @WithTransaction
    public Uni<Void> delete(long processId) {
        return access.onProcess(processId, Permission.WRITE).chain(() -> lockTreeOf(processId)).chain(current -> {
            if (current.deleted()) {
                return Uni.createFrom().voidItem(); // idempotent: already gone, nothing to announce
            }
            Uni<List<ProcessRow>> tree = current.isParent() ? processes.tree(processId)
                    : Uni.createFrom().item(List.of(current));
            return tree.map(rows -> rows.stream().map(ProcessRow::processId).toList())
                    .call(ids -> processes.referencing(processId).invoke(referrers -> {
                        List<String> blockers = referrers.stream()
                                .filter(referrer -> !ids.contains(referrer.processId()))
                                .map(referrer -> String.valueOf(referrer.processId()))
                                .toList();
                        if (!blockers.isEmpty()) {
                            throw STILL_REFERENCED.exception("process " + processId + " is still named as next or"
                                    + " enqueuing process by process(es) " + String.join(", ", blockers));
                        }
                    }))
                    .chain(processes::markDeleted)
                    .chain(deleted -> events.deleted(current.treeId(), deleted));
        });
    }

    /** Announces a change to a process made by a collaborator (e.g. properties) in the caller's transaction. */
    public Uni<Void> announceChange(long processId) {
        return lockTreeOf(processId)
                .call(() -> processes.touch(processId))
                .chain(current -> events.changed(current.treeId(), List.of(processId)));
    }

    @WithSession
    public Uni<ProcessRow> get(long processId) {
        return processes.find(processId).map(found -> found.orElseThrow(() -> notFound(processId)))
                .call(row -> requireApplication(row.applicationId(), Permission.READ));
    }

    private Uni<Void> requireApplication(long applicationId, Permission permission) {
        return access.onApplicationIfExists(applicationId, permission);
    }

    /** The tree of {@code processId}: its parent first, then the steps by id. */
    @WithSession
    public Uni<List<ProcessRow>> tree(long processId) {
        return get(processId).chain(row -> processes.tree(row.treeId()));
    }

    @WithSession
    public Uni<Listing<ProcessRow>> list(ProcessFilter filter, int limit, int offset) {
        // Read permission filters the listing itself: a caller never learns of processes it may not read.
        Caller reader = access.caller();
        return processes.list(filter, reader, limit, offset)
                .chain(items -> processes.count(filter, reader).map(total -> new Listing<>(items, total)));
    }

    /** Locks the parent of {@code processId}'s tree and returns the (re-read) process. */
    private Uni<ProcessRow> lockTreeOf(long processId) {
        return processes.find(processId)
                .map(found -> found.orElseThrow(() -> notFound(processId)))
                .call(row -> processes.lock(row.treeId()))
                .chain(row -> processes.find(processId))
                .map(Optional::orElseThrow);
    }

    private Uni<Void> requireChoosableId(ProcessDraft draft) {
        if (draft.processId() == null) {
            return Uni.createFrom().voidItem();
        }
        if (!ChosenIds.choosable(draft.processId())) {
            return Uni.createFrom().failure(
                    ID_OUT_OF_RANGE.exception(ChosenIds.outOfRange("process id", draft.processId())));
        }
        return processes.find(draft.processId()).invoke(existing -> {
            if (existing.isPresent()) {
                throw DUPLICATE.exception("process " + draft.processId() + " already exists");
            }
        }).replaceWithVoid();
    }

    private Uni<List<ProcessRow>> stepsOf(long parentId) {
        return processes.tree(parentId).map(tree -> tree.stream().filter(r -> !r.isParent()).toList());
    }

    /** The application, workflow type and server a draft names exist; joins the caller's session. */
    public Uni<Void> checkReferences(ProcessDraft draft) {
        return applications.find(draft.applicationId())
                .invoke(application -> {
                    if (application.isEmpty()) {
                        throw UNKNOWN_REFERENCE.exception("application " + draft.applicationId() + " does not exist");
                    }
                })
                .chain(catalog::workflowTypes)
                .invoke(workflowTypes -> {
                    if (!workflowTypes.containsKey(draft.workflowTypeId())) {
                        throw UNKNOWN_REFERENCE.exception("workflow type " + draft.workflowTypeId()
                                + " does not exist");
                    }
                })
                .chain(() -> draft.serverId() == null ? Uni.createFrom().item(Optional.<ServerRow>empty())
                        : servers.find(draft.serverId()))
                .invoke(server -> {
                    if (draft.serverId() != null && server.isEmpty()) {
                        throw UNKNOWN_SERVER.exception("server " + draft.serverId() + " does not exist");
                    }
                })
                .replaceWithVoid();
    }

    /**
     * Runs the tree rules. They are free of I/O, so everything they may look at is read first, in this transaction:
     * the processes the draft names and, for each enqueuing process, the parents upstream of it.
     */
    private Uni<Void> validate(ProcessDraft draft, Optional<ProcessRow> parent, List<ProcessRow> steps) {
        Set<Long> named = Stream.concat(draft.enqueuingProcessIds().stream(), draft.nextProcessIds().stream())
                .filter(Objects::nonNull).collect(Collectors.toCollection(LinkedHashSet::new));
        Set<Long> enqueuers = draft.enqueuingProcessIds().stream().filter(Objects::nonNull)
                .collect(Collectors.toCollection(LinkedHashSet::new));
        return processes.findAll(named)
                .map(found -> found.stream().collect(Collectors.toMap(ProcessRow::processId, Function.identity())))
                .chain(found -> Unis.sequentially(enqueuers, processes::upstreamParents)
                        .map(upstream -> {
                            Map<Long, Set<Long>> byEnqueuer = new HashMap<>();
                            int i = 0;
                            for (Long enqueuer : enqueuers) {
                                byEnqueuer.put(enqueuer, upstream.get(i++));
                            }
                            return byEnqueuer;
                        })
                        .chain(upstream -> catalog.processTypes().invoke(types -> ProcessRules.validate(draft,
                                new ProcessRules.Context(types, parent, steps,
                                        id -> Optional.ofNullable(found.get(id)),
                                        id -> upstream.getOrDefault(id, Set.of()))))))
                .replaceWithVoid();
    }

    private static RuntimeException notFound(long processId) {
        return NOT_FOUND.exception("process " + processId + " does not exist");
    }
}
