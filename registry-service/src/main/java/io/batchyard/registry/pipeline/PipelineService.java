package io.batchyard.registry.pipeline;

import static io.batchyard.api.CommonErrors.INVALID_REQUEST;
import static io.batchyard.registry.RegistryError.CHANGED_SINCE_PLAN;
import static io.batchyard.registry.RegistryError.DUPLICATE;
import static io.batchyard.registry.RegistryError.UNKNOWN_REFERENCE;

import io.batchyard.api.access.Permission;
import io.batchyard.persistence.InOrder;
import io.batchyard.registry.application.AccessGuard;
import io.batchyard.registry.application.ApplicationRow;
import io.batchyard.registry.application.ApplicationService;
import io.batchyard.registry.pipeline.PipelineApi.ApplyRequest;
import io.batchyard.registry.pipeline.PipelineApi.Change;
import io.batchyard.registry.pipeline.PipelineApi.Permissions;
import io.batchyard.registry.pipeline.PipelineApi.ProcessFields;
import io.batchyard.registry.pipeline.PipelineApi.ProcessRef;
import io.batchyard.registry.pipeline.PipelineApi.SeenProcess;
import io.batchyard.registry.process.ProcessApi;
import io.batchyard.registry.process.ProcessFilter;
import io.batchyard.registry.process.ProcessRow;
import io.batchyard.registry.process.ProcessService;
import io.batchyard.registry.process.PropertyRow;
import io.batchyard.registry.process.PropertyService;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Applies an application's plan in one transaction: checks that the live state is still the one the plan saw, then
 * makes each change through the services that own the objects (so their rules, permission checks and outbox events
 * are those of the single-object endpoints), all in the transaction opened here, which theirs join. The first refusal
 * rolls everything back.
 */
@ApplicationScoped
public class PipelineService {

    /** More processes than one application is expected to hold; the list of them is read in one page. */
    private static final int ALL = 100_000;

    private final ApplicationService applications;
    private final ProcessService processes;
    private final PropertyService properties;
    private final AccessGuard access;

    public PipelineService(ApplicationService applications, ProcessService processes, PropertyService properties,
                           AccessGuard access) {
        this.applications = applications;
        this.processes = processes;
        this.properties = properties;
        this.access = access;
    }

    @WithTransaction
    public Uni<PipelineApi.Applied> apply(ApplyRequest request) {
        String name = request.application().name();
        return applicationNamed(name).chain(found -> {
            if (found.isPresent() != request.expected().applicationExists()) {
                // Applications the caller may not read are not found: the answer is then the same as for a name
                // nobody has, and repeats no name, so that it tells nothing of an application the caller cannot see.
                throw CHANGED_SINCE_PLAN.exception(found.isPresent()
                        ? "application '" + name + "' was created since the plan"
                        : "the plan's application is gone: it was deleted since the plan, or it is not yours to read");
            }
            return found.isPresent() ? update(found.get().id(), request).map(id -> false)
                    : create(request).map(id -> true);
        }).chain(created -> applicationNamed(name).map(Optional::orElseThrow).chain(app -> processes
                // Locked before the versions are compared, so nothing can change between the check and the commit.
                .lockApplication(app.id()).chain(() -> liveProcesses(app.id()))
                .invoke(live -> {
                    if (!created) {
                        requireSeen(live, request.expected().processes());
                    }
                })
                .chain(live -> InOrder.each(request.changes(), change -> make(app.id(), live, change)))
                .map(done -> new PipelineApi.Applied(app.id(), created, request.changes().size()))));
    }

    /** An existing application: write permission, unchanged since the plan, then its own fields and permissions. */
    private Uni<Long> update(long id, ApplyRequest request) {
        PipelineApi.DesiredApplication desired = request.application();
        PipelineApi.Expected seen = request.expected();
        return access.onApplication(id, Permission.WRITE).chain(live -> {
            List<String> changed = new ArrayList<>();
            if (!Objects.equals(live.description(), seen.description())) {
                changed.add("description");
            }
            if (seen.owner() != null && !Objects.equals(live.owner(), seen.owner())) {
                changed.add("owner");
            }
            if (seen.permissions() != null && !same(live.permissions(), seen.permissions())) {
                changed.add("permissions");
            }
            if (!changed.isEmpty()) {
                throw CHANGED_SINCE_PLAN.exception("application '" + desired.name() + "' changed since the plan ("
                        + String.join(", ", changed) + ")");
            }
            Uni<?> fields = Objects.equals(live.description(), desired.description())
                    && Objects.equals(live.owner(), desired.owner()) ? Uni.createFrom().voidItem()
                    : applications.update(id, desired.name(), desired.description(), desired.owner());
            return fields.chain(() -> desired.permissions() == null || same(live.permissions(), desired.permissions())
                    ? Uni.createFrom().voidItem() : setPermissions(id, desired.permissions()));
        }).replaceWith(id);
    }

    private Uni<Long> create(ApplyRequest request) {
        PipelineApi.DesiredApplication desired = request.application();
        Permissions p = desired.permissions();
        return applications.create(desired.name(), desired.description(), desired.owner(),
                        p == null ? null : p.ownerGroup())
                .call(created -> p == null || same(created.permissions(), p) ? Uni.createFrom().voidItem()
                        : setPermissions(created.id(), p))
                .map(ApplicationRow::id);
    }

    private Uni<?> setPermissions(long id, Permissions p) {
        return applications.setPermissions(id, new ApplicationRow.Permissions(p.ownerUser(), p.ownerGroup(), p.owner(),
                p.group(), p.others()));
    }

    private static boolean same(ApplicationRow.Permissions live, Permissions p) {
        return live != null && (p.ownerUser() == null || Objects.equals(live.ownerUser(), p.ownerUser()))
                && Objects.equals(live.ownerGroup(), p.ownerGroup()) && live.owner() == p.owner()
                && live.group() == p.group() && live.others() == p.others();
    }

    /** Names are unique among applications; the list finds names containing it, so the exact one is picked out. */
    private Uni<Optional<ApplicationRow>> applicationNamed(String name) {
        return applications.list(name, ALL, 0).map(listing -> listing.items().stream()
                .filter(a -> a.name().equals(name)).findFirst());
    }

    /** The application's live processes by name: a parent as its name, a step as parent and step name. */
    private Uni<Map<String, ProcessRow>> liveProcesses(long applicationId) {
        return processes.list(new ProcessFilter(applicationId, null, null, null, null, false), ALL, 0)
                .map(listing -> {
                    Map<Long, ProcessRow> byId = new HashMap<>();
                    listing.items().forEach(p -> byId.put(p.processId(), p));
                    Map<String, ProcessRow> byName = new HashMap<>();
                    for (ProcessRow p : listing.items().stream().sorted((a, b) -> Long.compare(a.processId(),
                            b.processId())).toList()) {
                        ProcessRow parent = p.isParent() ? null : byId.get(p.parentProcessId());
                        if (!p.isParent() && parent == null) {
                            continue; // a step of a deleted parent is deleted with it
                        }
                        String key = p.isParent() ? key(p.name(), null) : key(parent.name(), p.name());
                        if (byName.putIfAbsent(key, p) != null) {
                            throw DUPLICATE.exception("application " + applicationId + " has two processes named "
                                    + label(key) + ": names must be unique within a tree to apply a pipeline file");
                        }
                    }
                    return byName;
                });
    }

    /** Every live process is one the plan saw, at the version it saw; none it saw is gone. */
    private static void requireSeen(Map<String, ProcessRow> live, List<SeenProcess> seen) {
        Map<String, Integer> versions = new HashMap<>();
        seen.forEach(s -> versions.put(key(s.parent(), s.step()), s.version()));
        for (String k : new TreeSet<>(live.keySet())) {
            ProcessRow row = live.get(k);
            Integer version = versions.get(k);
            if (version == null) {
                throw CHANGED_SINCE_PLAN.exception("process " + label(k) + " (id " + row.processId()
                        + ") was created since the plan");
            }
            if (version != row.version()) {
                throw CHANGED_SINCE_PLAN.exception("process " + label(k) + " (id " + row.processId()
                        + ") changed since the plan: it is at version " + row.version() + ", the plan saw " + version);
            }
        }
        for (String k : new TreeSet<>(versions.keySet())) {
            if (!live.containsKey(k)) {
                throw CHANGED_SINCE_PLAN.exception("process " + label(k) + " was deleted since the plan");
            }
        }
    }

    private Uni<?> make(long applicationId, Map<String, ProcessRow> live, Change change) {
        String k = key(change.parent(), change.step());
        return switch (change.kind()) {
            case CREATE_PROCESS -> {
                if (live.containsKey(k)) {
                    throw DUPLICATE.exception("process " + label(k) + " already exists");
                }
                ProcessFields f = fields(change);
                Long parentId = change.step() == null ? null : id(live, key(change.parent(), null));
                yield processes.create(new ProcessApi.CreateProcess(null, change.step() == null ? change.parent()
                                : change.step(), f.description(), applicationId, f.processTypeId(), parentId,
                                f.canRecover(), List.of(), f.batchCutPattern(), List.of(), f.workflowTypeId(), null))
                        .invoke(created -> live.put(k, created));
            }
            case UPDATE_PROCESS -> {
                ProcessFields f = fields(change);
                long id = id(live, k);
                yield InOrder.map(f.enqueuing() == null ? List.<ProcessRef>of() : f.enqueuing(),
                                ref -> ref.application() == null ? Uni.createFrom().item(id(live, key(ref.process(),
                                        null))) : parentOf(ref))
                        .chain(enqueuing -> {
                            ProcessApi.PatchProcess patch = new ProcessApi.PatchProcess();
                            patch.description = f.description();
                            patch.processTypeId = f.processTypeId();
                            patch.workflowTypeId = f.workflowTypeId();
                            patch.canRecover = f.canRecover();
                            patch.setBatchCutPattern(f.batchCutPattern());
                            patch.enqueuingProcessIds = enqueuing;
                            patch.nextProcessIds = (f.next() == null ? List.<String>of() : f.next()).stream()
                                    .map(n -> id(live, n.equals(change.parent()) ? key(n, null)
                                            : key(change.parent(), n))).toList();
                            return processes.update(id, patch);
                        })
                        .invoke(updated -> live.put(k, updated));
            }
            case DELETE_PROCESS -> processes.delete(id(live, k)).invoke(() -> live.remove(k));
            case PUT_PROPERTY -> properties.put(new PropertyRow(id(live, k), property(change).configGroup(),
                    property(change).key(), property(change).value(),
                    // as PUT /processes/{id}/properties/{key} stores an absent description
                    property(change).description() == null ? "" : property(change).description()));
            case DELETE_PROPERTY -> properties.delete(id(live, k), property(change).key());
        };
    }

    /** A parent process of another application, which the caller must be able to read (else it does not exist). */
    private Uni<Long> parentOf(ProcessRef ref) {
        return applicationNamed(ref.application()).chain(app -> app.isEmpty()
                        ? Uni.createFrom().item(List.<ProcessRow>of())
                        : processes.list(new ProcessFilter(app.get().id(), null, null, true, ref.process(), false),
                                        ALL, 0)
                                .map(listing -> listing.items().stream().filter(p -> p.name().equals(ref.process()))
                                        .toList()))
                .map(found -> {
                    if (found.size() != 1) {
                        throw UNKNOWN_REFERENCE.exception("enqueuing process '" + ref.process() + "' of application '"
                                + ref.application() + "' " + (found.isEmpty() ? "does not exist" : "is not unique"));
                    }
                    return found.get(0).processId();
                });
    }

    private static ProcessFields fields(Change change) {
        if (change.process() == null) {
            throw INVALID_REQUEST.exception(change.kind() + " of "
                    + label(key(change.parent(), change.step())) + " needs 'process'");
        }
        return change.process();
    }

    private static PipelineApi.PropertyFields property(Change change) {
        if (change.property() == null) {
            throw INVALID_REQUEST.exception(change.kind() + " of "
                    + label(key(change.parent(), change.step())) + " needs 'property'");
        }
        return change.property();
    }

    private static long id(Map<String, ProcessRow> live, String key) {
        ProcessRow row = live.get(key);
        if (row == null) {
            throw UNKNOWN_REFERENCE.exception("process " + label(key) + " does not exist");
        }
        return row.processId();
    }

    private static String key(String parent, String step) {
        return step == null ? parent : parent + "\u0000" + step;
    }

    /** How a refusal names a process: {@code 'load'} or {@code 'load/fetch'}. */
    private static String label(String key) {
        return "'" + key.replace('\u0000', '/') + "'";
    }
}
