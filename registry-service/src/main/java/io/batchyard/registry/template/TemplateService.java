package io.batchyard.registry.template;

import static io.batchyard.api.CommonErrors.NOT_FOUND;
import static io.batchyard.registry.RegistryError.DELETED;
import static io.batchyard.registry.RegistryError.INVALID_TEMPLATE;
import static io.batchyard.registry.RegistryError.UNKNOWN_REFERENCE;

import io.batchyard.registry.application.ApplicationDao;
import io.batchyard.registry.catalog.Catalog;
import io.batchyard.registry.process.ProcessApi;
import io.batchyard.registry.process.ProcessDraft;
import io.batchyard.registry.process.ProcessEvents;
import io.batchyard.registry.process.ProcessRow;
import io.batchyard.registry.process.ProcessRules;
import io.batchyard.registry.process.ProcessService;
import io.batchyard.registry.process.PropertyDao;
import io.batchyard.registry.process.PropertyRow;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/** Templates of process trees, and instantiation of a template tree into new processes. */
@ApplicationScoped
public class TemplateService {

    @Inject
    Jdbi jdbi;

    @Inject
    TemplateDao templates;

    @Inject
    ApplicationDao applications;

    @Inject
    Catalog catalog;

    @Inject
    ProcessService processes;

    @Inject
    PropertyDao properties;

    @Inject
    ProcessEvents events;

    public TemplateRow create(TemplateApi.CreateTemplate r) {
        TemplateDao.Fields fields = new TemplateDao.Fields(r.name().trim(), r.description(), r.applicationId(),
                r.processTypeId(), r.parentTemplateId(), r.canRecover() == null || r.canRecover(),
                normalise(r.batchCutPattern()), r.nextTemplateIds() == null ? List.of() : r.nextTemplateIds(),
                r.workflowTypeId() != null ? r.workflowTypeId() : r.parentTemplateId() == null ? 1 : 0);
        return jdbi.inTransaction(tx -> {
            if (fields.parentTemplateId() != null) {
                templates.lock(tx, fields.parentTemplateId());
            }
            validate(tx, null, fields);
            long id = templates.insert(tx, fields);
            return templates.find(tx, id).orElseThrow();
        });
    }

    public TemplateRow update(long id, TemplateApi.PatchTemplate p) {
        return jdbi.inTransaction(tx -> {
            TemplateRow current = templates.find(tx, id)
                    .orElseThrow(() -> NOT_FOUND.exception("template " + id + " does not exist"));
            templates.lock(tx, current.isParent() ? id : current.parentTemplateId());
            if (current.deleted()) {
                throw DELETED.exception("template " + id + " is deleted");
            }
            TemplateDao.Fields fields = new TemplateDao.Fields(
                    p.name != null ? p.name.trim() : current.name(),
                    p.description != null ? p.description : current.description(),
                    current.applicationId(), current.processTypeId(), current.parentTemplateId(),
                    p.canRecover != null ? p.canRecover : current.canRecover(),
                    p.getBatchCutPattern() != null ? normalise(p.getBatchCutPattern().orElse(null)) : current.batchCutPattern(),
                    p.nextTemplateIds != null ? p.nextTemplateIds : current.nextTemplateIds(),
                    p.workflowTypeId != null ? p.workflowTypeId : current.workflowTypeId());
            validate(tx, id, fields);
            templates.update(tx, id, fields);
            return templates.find(tx, id).orElseThrow();
        });
    }

    /**
     * Clones a parent template and its step templates into a new process tree in one transaction: next ids are
     * remapped to the new processes, property templates become properties, and one ProcessRegistered is published.
     */
    public List<ProcessRow> instantiate(long templateId, TemplateApi.Instantiate request) {
        return jdbi.inTransaction(tx -> {
            List<TemplateRow> tree = templates.tree(tx, templateId).stream().filter(t -> !t.deleted()).toList();
            if (tree.isEmpty() || tree.get(0).templateId() != templateId) {
                throw NOT_FOUND.exception("template " + templateId + " does not exist or is deleted");
            }
            if (!tree.get(0).isParent()) {
                throw INVALID_TEMPLATE.exception("template " + templateId + " is a step template; instantiate its parent "
                        + tree.get(0).parentTemplateId());
            }
            String prefix = request == null || request.namePrefix() == null ? "" : request.namePrefix();
            Long applicationId = request == null ? null : request.applicationId();
            Map<Long, Long> newIds = new LinkedHashMap<>();
            for (TemplateRow t : tree) {
                Long parentId = t.isParent() ? null : newIds.get(t.parentTemplateId());
                String name = (prefix + t.name()).substring(0, Math.min(45, (prefix + t.name()).length()));
                ProcessRow created = processes.create(tx, new ProcessDraft(null, name, t.description(),
                        applicationId != null ? applicationId : t.applicationId(), t.processTypeId(), parentId,
                        t.canRecover(), List.of(), t.batchCutPattern(), List.of(), t.workflowTypeId(), t.templateId()));
                newIds.put(t.templateId(), created.processId());
                for (TemplateDao.PropertyTemplate p : templates.properties(tx, t.templateId())) {
                    properties.upsert(tx, new PropertyRow(created.processId(), p.configGroup(), p.key(), p.value(),
                            p.description()));
                }
            }
            // Link only once every process exists, so the tree rules see the whole tree.
            for (TemplateRow t : tree) {
                List<Long> next = new ArrayList<>();
                for (Long n : t.nextTemplateIds()) {
                    Long mapped = newIds.get(n);
                    if (mapped == null) {
                        throw INVALID_TEMPLATE.exception("template " + t.templateId() + " names next template " + n
                                + " which is not a live template of this tree");
                    }
                    next.add(mapped);
                }
                if (!next.isEmpty()) {
                    processes.update(tx, newIds.get(t.templateId()), ProcessApi.PatchProcess.nextOnly(next));
                }
            }
            long parentId = newIds.get(templateId);
            events.registered(tx, parentId, List.copyOf(newIds.values()));
            return processes.tree(parentId);
        });
    }

    public void delete(long id) {
        jdbi.useTransaction(tx -> {
            if (templates.find(tx, id).isEmpty()) {
                throw NOT_FOUND.exception("template " + id + " does not exist");
            }
            templates.markDeleted(tx, id);
        });
    }

    private void validate(Handle tx, Long id, TemplateDao.Fields f) {
        if (applications.find(tx, f.applicationId()).isEmpty()) {
            throw UNKNOWN_REFERENCE.exception("application " + f.applicationId() + " does not exist");
        }
        if (!catalog.workflowTypes().containsKey(f.workflowTypeId())) {
            throw UNKNOWN_REFERENCE.exception("workflow type " + f.workflowTypeId() + " does not exist");
        }
        ProcessDraft draft = new ProcessDraft(id, f.name(), f.description(), f.applicationId(), f.processTypeId(),
                f.parentTemplateId(), f.canRecover(), List.of(), f.batchCutPattern(), f.nextTemplateIds(),
                f.workflowTypeId(), null);
        long treeId = f.parentTemplateId() != null ? f.parentTemplateId() : id == null ? -1 : id;
        List<ProcessRow> steps = templates.tree(tx, treeId).stream().filter(t -> !t.isParent())
                .map(TemplateRow::asProcessRow).toList();
        Optional<ProcessRow> parent = f.parentTemplateId() == null ? Optional.empty()
                : templates.find(tx, f.parentTemplateId()).map(TemplateRow::asProcessRow);
        ProcessRules.validate(draft, new ProcessRules.Context(catalog.processTypes(), parent, steps,
                tid -> templates.find(tx, tid).map(TemplateRow::asProcessRow), tid -> Set.of()));
    }

    private static String normalise(String pattern) {
        return pattern == null || pattern.isBlank() ? null : pattern.trim();
    }
}
