package io.batchyard.registry.process;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DELETED;
import static io.batchyard.registry.RegistryError.DUPLICATE;
import static io.batchyard.registry.RegistryError.ID_OUT_OF_RANGE;
import static io.batchyard.registry.RegistryError.STALE_VERSION;
import static io.batchyard.registry.RegistryError.STILL_REFERENCED;
import static io.batchyard.registry.RegistryError.UNKNOWN_REFERENCE;

import io.batchyard.api.ChosenIds;
import io.batchyard.registry.application.ApplicationDao;
import io.batchyard.registry.catalog.Catalog;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Creates, changes and deletes processes. Each change runs in one transaction that locks the tree's parent row,
 * validates the tree as it will be, writes it, and appends the event to the outbox.
 */
@ApplicationScoped
public class ProcessService {

    @Inject
    Jdbi jdbi;

    @Inject
    ProcessDao processes;

    @Inject
    ApplicationDao applications;

    @Inject
    Catalog catalog;

    @Inject
    ProcessEvents events;

    public ProcessRow create(ProcessApi.CreateProcess request) {
        return jdbi.inTransaction(tx -> {
            ProcessRow created = create(tx, request.toDraft(null));
            if (created.isParent()) {
                events.registered(tx, created.processId(), List.of(created.processId()));
            } else {
                events.registered(tx, created.parentProcessId(), List.of(created.processId()));
            }
            return created;
        });
    }

    /** Inserts one process inside {@code tx} without announcing it (callers creating whole trees announce once). */
    public ProcessRow create(Handle tx, ProcessDraft draft) {
        Optional<ProcessRow> parent = Optional.empty();
        if (!draft.isParent()) {
            parent = processes.lock(tx, draft.parentProcessId());
        }
        if (draft.processId() != null && !ChosenIds.choosable(draft.processId())) {
            throw ID_OUT_OF_RANGE.exception(ChosenIds.outOfRange("process id", draft.processId()));
        }
        if (draft.processId() != null && processes.find(tx, draft.processId()).isPresent()) {
            throw DUPLICATE.exception("process " + draft.processId() + " already exists");
        }
        checkReferences(tx, draft);
        List<ProcessRow> steps = draft.isParent() ? List.of() : stepsOf(tx, draft.parentProcessId());
        ProcessRules.validate(draft, context(tx, parent, steps));
        long id = processes.insert(tx, draft);
        return processes.find(tx, id).orElseThrow();
    }

    public ProcessRow update(long processId, ProcessApi.PatchProcess patch) {
        return jdbi.inTransaction(tx -> {
            ProcessRow updated = update(tx, processId, patch);
            events.changed(tx, updated.treeId(), List.of(processId));
            return updated;
        });
    }

    /** Validates and applies a patch inside {@code tx} without announcing it. */
    public ProcessRow update(Handle tx, long processId, ProcessApi.PatchProcess patch) {
        ProcessRow current = lockTreeOf(tx, processId);
        if (current.deleted()) {
            throw DELETED.exception("process " + processId + " is deleted");
        }
        if (patch.version != null && patch.version != current.version()) {
            throw STALE_VERSION.exception("process " + processId + " is at version " + current.version()
                    + ", not " + patch.version);
        }
        ProcessDraft draft = patch.applyTo(current);
        checkReferences(tx, draft);
        Optional<ProcessRow> parent = current.isParent() ? Optional.empty()
                : processes.find(tx, current.parentProcessId());
        ProcessRules.validate(draft, context(tx, parent, stepsOf(tx, current.treeId())));
        if (!processes.update(tx, processId, current.version(), draft)) {
            throw STALE_VERSION.exception("process " + processId + " changed concurrently; retry");
        }
        return processes.find(tx, processId).orElseThrow();
    }

    /**
     * Soft-deletes a process; deleting a parent deletes its steps. Refused while a live process still points at it,
     * so no tree is left with a dangling next process or enqueuing process.
     */
    public void delete(long processId) {
        jdbi.useTransaction(tx -> {
            ProcessRow current = lockTreeOf(tx, processId);
            if (current.deleted()) {
                return; // idempotent: already gone, nothing to announce
            }
            List<ProcessRow> tree = current.isParent() ? processes.tree(tx, processId) : List.of(current);
            List<Long> ids = tree.stream().map(ProcessRow::processId).toList();
            List<String> blockers = new ArrayList<>();
            for (ProcessRow referrer : processes.referencing(tx, processId)) {
                if (!ids.contains(referrer.processId())) {
                    blockers.add(String.valueOf(referrer.processId()));
                }
            }
            if (!blockers.isEmpty()) {
                throw STILL_REFERENCED.exception("process " + processId + " is still named as next or enqueuing process"
                        + " by process(es) " + String.join(", ", blockers));
            }
            List<Long> deleted = processes.markDeleted(tx, ids);
            events.deleted(tx, current.treeId(), deleted);
        });
    }

    /** Announces a change to a process made by a collaborator (e.g. properties) in the caller's transaction. */
    public void announceChange(Handle tx, long processId) {
        ProcessRow current = lockTreeOf(tx, processId);
        processes.touch(tx, processId);
        events.changed(tx, current.treeId(), List.of(processId));
    }

    public ProcessRow get(long processId) {
        return jdbi.withHandle(h -> processes.find(h, processId))
                .orElseThrow(() -> NOT_FOUND.exception("process " + processId + " does not exist"));
    }

    public List<ProcessRow> tree(long processId) {
        return jdbi.withHandle(h -> {
            ProcessRow row = processes.find(h, processId)
                    .orElseThrow(() -> NOT_FOUND.exception("process " + processId + " does not exist"));
            return processes.tree(h, row.treeId());
        });
    }

    public record Listing(List<ProcessRow> items, long total) {
    }

    public Listing list(ProcessDao.Filter filter, int limit, int offset) {
        return jdbi.withHandle(h -> new Listing(processes.list(h, filter, limit, offset), processes.count(h, filter)));
    }

    /** Locks the parent of {@code processId}'s tree and returns the (re-read) process. */
    ProcessRow lockTreeOf(Handle tx, long processId) {
        ProcessRow row = processes.find(tx, processId)
                .orElseThrow(() -> NOT_FOUND.exception("process " + processId + " does not exist"));
        processes.lock(tx, row.treeId());
        return processes.find(tx, processId).orElseThrow();
    }

    private List<ProcessRow> stepsOf(Handle tx, long parentId) {
        return processes.tree(tx, parentId).stream().filter(r -> !r.isParent()).collect(Collectors.toList());
    }

    private void checkReferences(Handle tx, ProcessDraft draft) {
        if (applications.find(tx, draft.applicationId()).isEmpty()) {
            throw UNKNOWN_REFERENCE.exception("application " + draft.applicationId() + " does not exist");
        }
        if (!catalog.workflowTypes().containsKey(draft.workflowTypeId())) {
            throw UNKNOWN_REFERENCE.exception("workflow type " + draft.workflowTypeId() + " does not exist");
        }
    }

    private ProcessRules.Context context(Handle tx, Optional<ProcessRow> parent, List<ProcessRow> steps) {
        return new ProcessRules.Context(catalog.processTypes(), parent, steps,
                id -> processes.find(tx, id), id -> processes.upstreamParents(tx, id));
    }
}
