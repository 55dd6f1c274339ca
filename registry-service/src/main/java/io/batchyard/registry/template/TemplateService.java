package io.batchyard.registry.template;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DELETED;
import static io.batchyard.registry.RegistryError.INVALID_TEMPLATE;
import static io.batchyard.registry.RegistryError.SECRET_IN_TEMPLATE;

import io.batchyard.api.ApiException;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import io.batchyard.persistence.InOrder;
import io.batchyard.registry.Listing;
import io.batchyard.registry.application.AccessGuard;
import io.batchyard.registry.catalog.CatalogService;
import io.batchyard.registry.process.ProcessApi;
import io.batchyard.registry.process.ProcessDraft;
import io.batchyard.registry.process.ProcessEvents;
import io.batchyard.registry.process.ProcessRow;
import io.batchyard.registry.process.ProcessRules;
import io.batchyard.registry.process.ProcessService;
import io.batchyard.registry.process.PropertyRow;
import io.batchyard.registry.process.PropertyService;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Templates of process trees, and instantiation of a template tree into new processes. A template belongs to an
 * application as a process does, and a step template to its parent template's: reading one needs read permission
 * there (without it the template does not exist for the caller), creating, changing or deleting one write permission.
 */
@ApplicationScoped
public class TemplateService {

    private final TemplateRepository templates;
    private final CatalogService catalog;
    private final ProcessService processes;
    private final PropertyService propertyService;
    private final ProcessEvents events;
    private final AccessGuard access;

    public TemplateService(TemplateRepository templates, CatalogService catalog, ProcessService processes,
                           PropertyService propertyService, ProcessEvents events, AccessGuard access) {
        this.templates = templates;
        this.catalog = catalog;
        this.processes = processes;
        this.propertyService = propertyService;
        this.events = events;
        this.access = access;
    }

    @WithTransaction
    public Uni<TemplateRow> create(TemplateApi.CreateTemplate r) {
        TemplateFields fields = new TemplateFields(r.name().trim(), r.description(), r.applicationId(),
                r.processTypeId(), r.parentTemplateId(), r.canRecover() == null || r.canRecover(),
                normalise(r.batchCutPattern()), r.nextTemplateIds() == null ? List.of() : r.nextTemplateIds(),
                r.workflowTypeId() != null ? r.workflowTypeId() : r.parentTemplateId() == null ? 1 : 0);
        Uni<?> lockParent = fields.parentTemplateId() == null
                ? access.intoApplication(fields.applicationId(), Permission.WRITE)
                : lockParentToWrite(fields);
        return lockParent
                .chain(() -> validate(null, fields))
                .chain(() -> templates.insert(fields))
                .chain(templates::find)
                .map(Optional::orElseThrow);
    }

    /**
     * Locks a new step template's parent and requires write permission on its application, where the step template
     * must be too (225); a parent the caller may not read is refused as one that does not exist.
     */
    private Uni<Optional<TemplateRow>> lockParentToWrite(TemplateFields step) {
        long parentId = step.parentTemplateId();
        return templates.lock(parentId).call(parent -> parent.isEmpty() ? Uni.createFrom().voidItem()
                : access.intoParent(parent.get().applicationId(), step.applicationId(), "template " + parentId,
                        () -> ProcessRules.invalidParent(parentId)));
    }

    @WithTransaction
    public Uni<TemplateRow> update(long id, TemplateApi.PatchTemplate p) {
        return require(id, Permission.WRITE)
                .call(current -> templates.lock(current.isParent() ? id : current.parentTemplateId()))
                .chain(current -> {
                    if (current.deleted()) {
                        throw DELETED.exception("template " + id + " is deleted");
                    }
                    TemplateFields fields = new TemplateFields(
                            p.name != null ? p.name.trim() : current.name(),
                            p.description != null ? p.description : current.description(),
                            current.applicationId(), current.processTypeId(), current.parentTemplateId(),
                            p.canRecover != null ? p.canRecover : current.canRecover(),
                            p.getBatchCutPattern() != null ? normalise(p.getBatchCutPattern().orElse(null))
                                    : current.batchCutPattern(),
                            p.nextTemplateIds != null ? p.nextTemplateIds : current.nextTemplateIds(),
                            p.workflowTypeId != null ? p.workflowTypeId : current.workflowTypeId());
                    return validate(id, fields).chain(() -> templates.update(id, fields));
                })
                .chain(() -> templates.find(id))
                .map(Optional::orElseThrow);
    }

    /**
     * Clones a parent template and its step templates into a new process tree in one transaction: next ids are
     * remapped to the new processes, property templates become properties, and one ProcessRegistered is published.
     * Needs read permission on the template's application and write permission on the one the tree goes to (the
     * template's, unless the request names another), where every process of the new tree belongs.
     */
    @WithTransaction
    public Uni<List<ProcessRow>> instantiate(long templateId, TemplateApi.Instantiate request) {
        String prefix = request == null || request.namePrefix() == null ? "" : request.namePrefix();
        Long requested = request == null ? null : request.applicationId();
        Map<Long, Long> newIds = new LinkedHashMap<>();
        Supplier<ApiException> notFound = () -> NOT_FOUND.exception("template " + templateId
                + " does not exist or is deleted");
        return templates.tree(templateId)
                .map(all -> {
                    List<TemplateRow> tree = all.stream().filter(t -> !t.deleted()).toList();
                    if (tree.isEmpty() || tree.get(0).templateId() != templateId) {
                        throw notFound.get();
                    }
                    return tree;
                })
                .call(tree -> access.onObjectOf(tree.get(0).applicationId(), Permission.READ,
                        "template " + templateId, notFound))
                .invoke(tree -> {
                    if (!tree.get(0).isParent()) {
                        throw INVALID_TEMPLATE.exception("template " + templateId + " is a step template;"
                                + " instantiate its parent " + tree.get(0).parentTemplateId());
                    }
                })
                .call(tree -> InOrder.each(tree, t -> {
                    Long parentId = t.isParent() ? null : newIds.get(t.parentTemplateId());
                    String name = (prefix + t.name()).substring(0, Math.min(45, (prefix + t.name()).length()));
                    return processes.insert(new ProcessDraft(null, name, t.description(),
                                    requested != null ? requested : tree.get(0).applicationId(), t.processTypeId(),
                                    parentId, t.canRecover(), List.of(), t.batchCutPattern(), List.of(),
                                    t.workflowTypeId(), t.templateId()))
                            .invoke(created -> newIds.put(t.templateId(), created.processId()))
                            .chain(created -> copyProperties(t.templateId(), created.processId()));
                }))
                // Link only once every process exists, so the tree rules see the whole tree.
                .call(tree -> InOrder.each(tree, t -> {
                    List<Long> next = new ArrayList<>();
                    for (Long n : t.nextTemplateIds()) {
                        Long mapped = newIds.get(n);
                        if (mapped == null) {
                            throw INVALID_TEMPLATE.exception("template " + t.templateId() + " names next template "
                                    + n + " which is not a live template of this tree");
                        }
                        next.add(mapped);
                    }
                    return next.isEmpty() ? Uni.createFrom().voidItem()
                            : processes.apply(newIds.get(t.templateId()), ProcessApi.PatchProcess.nextOnly(next));
                }))
                .chain(tree -> {
                    long parentId = newIds.get(templateId);
                    return events.registered(parentId, List.copyOf(newIds.values()))
                            .chain(() -> processes.tree(parentId));
                });
    }

    @WithTransaction
    public Uni<Void> delete(long id) {
        return require(id, Permission.WRITE).chain(template -> templates.markDeleted(id)).replaceWithVoid();
    }

    @WithSession
    public Uni<TemplateRow> get(long id) {
        return require(id, Permission.READ);
    }

    /** The tree of template {@code id}: its parent template first, then the step templates by id. */
    @WithSession
    public Uni<List<TemplateRow>> tree(long id) {
        return require(id, Permission.READ)
                .chain(row -> templates.tree(row.isParent() ? id : row.parentTemplateId()));
    }

    /** The templates of applications the caller may read. */
    @WithSession
    public Uni<Listing<TemplateRow>> list(boolean parentsOnly, int limit, int offset) {
        Caller reader = access.caller();
        return templates.list(parentsOnly, reader, limit, offset)
                .chain(items -> templates.count(parentsOnly, reader).map(total -> new Listing<>(items, total)));
    }

    @WithSession
    public Uni<List<PropertyTemplate>> properties(long id) {
        return require(id, Permission.READ).chain(template -> templates.properties(id));
    }

    @WithTransaction
    public Uni<PropertyTemplate> putProperty(PropertyTemplate property) {
        if (PropertyRow.sensitive(property.configGroup())) {
            throw SECRET_IN_TEMPLATE.exception("config group '" + property.configGroup() + "' holds secrets; set it on "
                    + "each process made from the template, where it is stored encrypted");
        }
        PropertyService.requireScriptName(new PropertyRow(property.templateId(), property.configGroup(), property.key(),
                property.value(), property.description()));
        return require(property.templateId(), Permission.WRITE)
                .chain(template -> templates.upsertProperty(property))
                .replaceWith(property);
    }

    @WithTransaction
    public Uni<Void> deleteProperty(long id, String key) {
        return require(id, Permission.WRITE).chain(() -> templates.deleteProperty(id, key)).invoke(deleted -> {
            if (!deleted) {
                throw NOT_FOUND.exception("template " + id + " has no property '" + key + "'");
            }
        }).replaceWithVoid();
    }

    private Uni<Void> copyProperties(long templateId, long processId) {
        return templates.properties(templateId).chain(props -> InOrder.each(props, p -> propertyService.store(
                new PropertyRow(processId, p.configGroup(), p.key(), p.value(), p.description()))));
    }

    /**
     * The template, when the caller holds {@code permission} on its application; without read permission there it
     * does not exist for the caller.
     */
    private Uni<TemplateRow> require(long id, Permission permission) {
        Supplier<ApiException> notFound = () -> NOT_FOUND.exception("template " + id + " does not exist");
        return templates.find(id).map(found -> found.orElseThrow(notFound))
                .call(template -> access.onObjectOf(template.applicationId(), permission, "template " + id,
                        notFound));
    }

    /** Templates obey the tree rules of processes; what the rules look at is read first, in this transaction. */
    private Uni<Void> validate(Long id, TemplateFields f) {
        ProcessDraft draft = new ProcessDraft(id, f.name(), f.description(), f.applicationId(), f.processTypeId(),
                f.parentTemplateId(), f.canRecover(), List.of(), f.batchCutPattern(), f.nextTemplateIds(),
                f.workflowTypeId(), null);
        long treeId = f.parentTemplateId() != null ? f.parentTemplateId() : id == null ? -1 : id;
        Uni<Optional<ProcessRow>> parent = f.parentTemplateId() == null ? Uni.createFrom().item(Optional.empty())
                : templates.find(f.parentTemplateId()).map(found -> found.map(TemplateRow::asProcessRow));
        return processes.checkReferences(draft)
                .chain(() -> templates.tree(treeId))
                .map(tree -> tree.stream().filter(t -> !t.isParent()).map(TemplateRow::asProcessRow).toList())
                .chain(steps -> parent.chain(p -> templates.findAll(f.nextTemplateIds())
                        .map(named -> named.stream()
                                .collect(Collectors.toMap(TemplateRow::templateId, Function.identity())))
                        .chain(named -> catalog.processTypes().invoke(types -> ProcessRules.validate(draft,
                                new ProcessRules.Context(types, p, steps,
                                        tid -> Optional.ofNullable(named.get(tid)).map(TemplateRow::asProcessRow),
                                        tid -> Set.of()))))))
                .replaceWithVoid();
    }

    private static String normalise(String pattern) {
        return pattern == null || pattern.isBlank() ? null : pattern.trim();
    }
}
