package io.batchyard.registry.process;

import io.batchyard.eventing.Outbox;
import io.batchyard.events.ProcessDefinition;
import io.batchyard.events.ProcessProperty;
import io.batchyard.events.registry.ProcessChanged;
import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;

/**
 * Announces tree changes through the outbox, keyed by the parent id. Registered/Changed carry the whole tree after the
 * change, so a consumer's read model never needs to ask the registry.
 */
@ApplicationScoped
public class ProcessEvents {

    static final String PRODUCER = "registry-service";

    @Inject
    Outbox outbox;

    @Inject
    ProcessDao processes;

    @Inject
    PropertyDao properties;

    public void registered(Handle tx, long parentId, List<Long> changed) {
        Snapshot s = snapshot(tx, parentId);
        outbox.append(tx, Topics.REGISTRY_PROCESSES, parentId, ProcessRegistered.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null))
                .setParentProcessId(parentId).setChangedProcessIds(changed)
                .setParent(s.parent()).setSteps(s.steps())
                .build());
    }

    public void changed(Handle tx, long parentId, List<Long> changed) {
        Snapshot s = snapshot(tx, parentId);
        outbox.append(tx, Topics.REGISTRY_PROCESSES, parentId, ProcessChanged.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null))
                .setParentProcessId(parentId).setChangedProcessIds(changed)
                .setParent(s.parent()).setSteps(s.steps())
                .build());
    }

    public void deleted(Handle tx, long parentId, List<Long> deleted) {
        outbox.append(tx, Topics.REGISTRY_PROCESSES, parentId, ProcessDeleted.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null))
                .setParentProcessId(parentId).setDeletedProcessIds(deleted)
                .build());
    }

    private record Snapshot(ProcessDefinition parent, List<ProcessDefinition> steps) {
    }

    private Snapshot snapshot(Handle tx, long parentId) {
        List<ProcessRow> tree = processes.tree(tx, parentId);
        Map<Long, List<ProcessProperty>> props = properties.forTree(tx, parentId).stream()
                .filter(p -> !p.sensitive())
                .collect(Collectors.groupingBy(PropertyRow::processId, Collectors.mapping(
                        p -> new ProcessProperty(p.configGroup(), p.key(), p.value()), Collectors.toList())));
        List<ProcessDefinition> defs = tree.stream().map(r -> definition(r, props.getOrDefault(r.processId(), List.of())))
                .toList();
        return new Snapshot(defs.get(0), defs.subList(1, defs.size()));
    }

    static ProcessDefinition definition(ProcessRow r, List<ProcessProperty> props) {
        return ProcessDefinition.newBuilder()
                .setProcessId(r.processId())
                .setProcessName(r.name())
                .setDescription(r.description())
                .setBusDomainId(r.applicationId())
                .setProcessTypeId(r.processTypeId())
                .setParentProcessId(r.parentProcessId())
                .setCanRecover(r.canRecover())
                .setEnqueuingProcessIds(r.enqueuingProcessIds())
                .setBatchCutPattern(r.batchCutPattern())
                .setNextProcessIds(r.nextProcessIds())
                .setDeleted(r.deleted())
                .setWorkflowTypeId(r.workflowTypeId())
                .setProcessTemplateId(r.processTemplateId())
                .setProcessCode(r.processCode().toString())
                .setProperties(props)
                .build();
    }
}
