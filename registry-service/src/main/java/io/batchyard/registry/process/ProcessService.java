package io.batchyard.registry.process;

import io.batchyard.api.ApiException;
import io.batchyard.api.ChosenIds;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.persistence.InOrder;
import io.batchyard.registry.Listing;
import io.batchyard.registry.application.AccessGuard;
import io.batchyard.registry.application.ApplicationService;
import io.batchyard.registry.catalog.CatalogService;
import io.batchyard.registry.server.ServerService;
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
import static io.batchyard.registry.RegistryError.INVALID_PARENT;
import static io.batchyard.registry.RegistryError.STALE_VERSION;
import static io.batchyard.registry.RegistryError.STEP_APPLICATION;
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
    private final ApplicationService applications;
    private final CatalogService catalog;
    private final ProcessEvents events;
    private final AccessGuard access;
    private final ServerService servers;

    public ProcessService(ProcessRepository processes, ApplicationService applications, CatalogService catalog,
                          ProcessEvents events, AccessGuard access, ServerService servers) {
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
     * Inserts one process in the caller's transaction without announcing it (whole trees are announced once). A
     * parent needs write permission on its application. A step runs in its parent's job with its parent's batches, so
     * it needs write permission on its parent's application and belongs to it: a step naming another application is
     * refused (225) rather than moved there, so that nobody is surprised where it went.
     */
    public Uni<ProcessRow> insert(ProcessDraft draft) {
        return (draft.isParent() ? access.intoApplication(draft.applicationId(), Permission.WRITE)
                        .replaceWith(Optional.<ProcessRow>empty())
                        : lockParentToWrite(draft))
                .call(parent -> requireChoosableId(draft))
                .call(parent -> checkReferences(draft))
                .call(parent -> (draft.isParent() ? Uni.createFrom().item(List.<ProcessRow>of())
                        : stepsOf(draft.parentProcessId()))
                        .chain(steps -> validate(draft, parent, steps, List.of())))
                .chain(parent -> processes.insert(draft))
                .chain(processes::find)
                .map(Optional::orElseThrow);
    }

    /**
     * Locks a new step's parent and requires write permission on the parent's application: a parent the caller may
     * not read is refused as one that does not exist. The step must name the parent's application.
     */
    private Uni<Optional<ProcessRow>> lockParentToWrite(ProcessDraft step) {
        long parentId = step.parentProcessId();
        return processes.lock(parentId).call(parent -> parent.isEmpty() ? Uni.createFrom().voidItem()
                : access.intoParent(parent.get().applicationId(), step.applicationId(), "process " + parentId,
                        () -> ProcessRules.invalidParent(parentId)));
    }

    /**
     * Needs write permission on the process's application (its parent's, for a step); moving a parent to another
     * application also needs write permission there, and takes its steps along.
     */
    @WithTransaction
    public Uni<ProcessRow> update(long processId, ProcessApi.PatchProcess patch) {
        return access.onProcess(processId, Permission.WRITE)
                .chain(() -> patch.applicationId == null ? Uni.createFrom().voidItem()
                        : access.intoApplication(patch.applicationId, Permission.WRITE))
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
            if (patch.parentProcessId != null && !patch.parentProcessId.equals(current.parentProcessId())) {
                throw INVALID_PARENT.exception("process " + processId + (current.isParent() ? " is a parent process"
                        : " is a step of parent process " + current.parentProcessId())
                        + ": a process's parent never changes");
            }
            ProcessDraft draft = ProcessMapping.draft(patch, current);
            if (!current.isParent() && draft.applicationId() != current.applicationId()) {
                throw STEP_APPLICATION.exception("a step belongs to its parent's application: move parent process "
                        + current.parentProcessId() + " instead");
            }
            Uni<Optional<ProcessRow>> parent = current.isParent() ? Uni.createFrom().item(Optional.empty())
                    : processes.find(current.parentProcessId());
            List<Long> alreadyNamed = Stream.concat(current.enqueuingProcessIds().stream(),
                    current.nextProcessIds().stream()).toList();
            return checkReferences(draft)
                    .chain(() -> parent)
                    .call(p -> stepsOf(current.treeId()).chain(steps -> validate(draft, p, steps, alreadyNamed)))
                    .chain(p -> processes.update(processId, current.version(), draft))
                    .invoke(applied -> {
                        if (!applied) {
                            throw STALE_VERSION.exception("process " + processId + " changed concurrently; retry");
                        }
                    })
                    .call(applied -> current.isParent() && draft.applicationId() != current.applicationId()
                            ? processes.moveSteps(processId, draft.applicationId()) : Uni.createFrom().voidItem())
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
                    .call(ids -> processes.referencing(processId).chain(referrers -> {
                        List<ProcessRow> blockers = referrers.stream()
                                .filter(referrer -> !ids.contains(referrer.processId()))
                                .toList();
                        if (blockers.isEmpty()) {
                            return Uni.createFrom().voidItem();
                        }
                        return access.readable(blockers.stream().map(ProcessRow::applicationId).toList())
                                .invoke(readable -> {
                                    throw STILL_REFERENCED.exception("process " + processId + " is still named as"
                                            + " next or enqueuing process by " + referrersShown(blockers, readable));
                                }).replaceWithVoid();
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

    /** Locks every process of the application until the caller's transaction ends (see the repository). */
    public Uni<Void> lockApplication(long applicationId) {
        return processes.lockApplication(applicationId);
    }

    /**
     * The process as stored, deleted or not, for a collaborator that has checked the caller's permission on it
     * already; joins the caller's session.
     */
    public Uni<Optional<ProcessRow>> find(long processId) {
        return processes.find(processId);
    }

    /**
     * The tree of parent {@code parentId} as stored (its parent first, then the steps by id, deleted ones included),
     * for a collaborator that has checked the caller's permission on it already; joins the caller's session.
     */
    public Uni<List<ProcessRow>> treeOf(long parentId) {
        return processes.tree(parentId);
    }

    /** Without read permission on its application, a process does not exist for the caller. */
    @WithSession
    public Uni<ProcessRow> get(long processId) {
        return processes.find(processId).map(found -> found.orElseThrow(() -> notFound(processId)))
                .call(row -> access.onObjectOf(row.applicationId(), Permission.READ, "process " + processId,
                        () -> notFound(processId)));
    }

    /**
     * The referrers a refusal may name: those of applications the caller may read, by id; the others only counted,
     * so that a refusal never names another team's process.
     */
    private static String referrersShown(List<ProcessRow> referrers, Set<Long> readableApplications) {
        List<String> shown = referrers.stream().filter(r -> readableApplications.contains(r.applicationId()))
                .map(r -> String.valueOf(r.processId())).toList();
        long hidden = referrers.size() - shown.size();
        String named = shown.isEmpty() ? "" : "process(es) " + String.join(", ", shown);
        String others = hidden == 0 ? "" : hidden + " process(es) of applications you may not read";
        return named.isEmpty() ? others : others.isEmpty() ? named : named + " and " + others;
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
        return applications.exists(draft.applicationId())
                .invoke(application -> {
                    if (!application) {
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
                .chain(() -> draft.serverId() == null ? Uni.createFrom().item(Boolean.FALSE)
                        : servers.exists(draft.serverId()))
                .invoke(server -> {
                    if (draft.serverId() != null && !server) {
                        throw UNKNOWN_SERVER.exception("server " + draft.serverId() + " does not exist");
                    }
                })
                .replaceWithVoid();
    }

    /**
     * Runs the tree rules. They are free of I/O, so everything they may look at is read first, in this transaction:
     * the processes the draft names and, for each enqueuing process, the parents upstream of it. A process the draft
     * newly names (subscribing to another job's output, above all) in an application the caller may not read is left
     * out, so the rules refuse it as one that does not exist; those in {@code alreadyNamed} (the stored row's) stay.
     */
    private Uni<Void> validate(ProcessDraft draft, Optional<ProcessRow> parent, List<ProcessRow> steps,
                               List<Long> alreadyNamed) {
        Set<Long> named = Stream.concat(draft.enqueuingProcessIds().stream(), draft.nextProcessIds().stream())
                .filter(Objects::nonNull).collect(Collectors.toCollection(LinkedHashSet::new));
        Set<Long> enqueuers = draft.enqueuingProcessIds().stream().filter(Objects::nonNull)
                .collect(Collectors.toCollection(LinkedHashSet::new));
        return processes.findAll(named)
                .chain(found -> access.readable(found.stream().map(ProcessRow::applicationId).toList())
                        .map(readable -> found.stream().filter(row -> alreadyNamed.contains(row.processId())
                                || readable.contains(row.applicationId())).toList()))
                .map(found -> found.stream().collect(Collectors.toMap(ProcessRow::processId, Function.identity())))
                .chain(found -> InOrder.map(enqueuers, processes::upstreamParents)
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

    private static ApiException notFound(long processId) {
        return NOT_FOUND.exception("process " + processId + " does not exist");
    }
}
