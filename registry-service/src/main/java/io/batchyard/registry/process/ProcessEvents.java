package io.batchyard.registry.process;

import io.batchyard.eventing.Outbox;
import io.batchyard.events.ProcessDefinition;
import io.batchyard.events.ProcessProperty;
import io.batchyard.events.registry.ProcessChanged;
import io.batchyard.events.registry.ProcessDeleted;
import io.batchyard.events.registry.ProcessRegistered;
import io.batchyard.registry.server.ServerRow;
import io.batchyard.registry.server.ServerService;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.Topics;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Announces tree changes through the outbox, keyed by the parent id. Registered/Changed carry the whole tree after the
 * change, so a consumer's read model never needs to ask the registry. Each append joins the transaction of the
 * calling service method, which also made the change: the change and its event commit or roll back together.
 */
@ApplicationScoped
public class ProcessEvents {

    static final String PRODUCER = "registry-service";

    private final Outbox outbox;
    private final ProcessRepository processes;
    private final PropertyRepository properties;
    private final ServerService servers;
    private final DeadlineRepository deadlines;

    public ProcessEvents(Outbox outbox, ProcessRepository processes, PropertyRepository properties,
                         ServerService servers, DeadlineRepository deadlines) {
        this.outbox = outbox;
        this.deadlines = deadlines;
        this.processes = processes;
        this.properties = properties;
        this.servers = servers;
    }

    public Uni<Void> registered(long parentId, List<Long> changed) {
        return snapshot(parentId).chain(s -> outbox.append(Topics.REGISTRY_PROCESSES, parentId,
                ProcessRegistered.newBuilder()
                        .setHeader(Events.header(PRODUCER, null, null))
                        .setParentProcessId(parentId).setChangedProcessIds(changed)
                        .setParent(s.parent()).setSteps(s.steps())
                        .build()));
    }

    public Uni<Void> changed(long parentId, List<Long> changed) {
        return snapshot(parentId).chain(s -> outbox.append(Topics.REGISTRY_PROCESSES, parentId,
                ProcessChanged.newBuilder()
                        .setHeader(Events.header(PRODUCER, null, null))
                        .setParentProcessId(parentId).setChangedProcessIds(changed)
                        .setParent(s.parent()).setSteps(s.steps())
                        .build()));
    }

    public Uni<Void> deleted(long parentId, List<Long> deleted) {
        return outbox.append(Topics.REGISTRY_PROCESSES, parentId, ProcessDeleted.newBuilder()
                .setHeader(Events.header(PRODUCER, null, null))
                .setParentProcessId(parentId).setDeletedProcessIds(deleted)
                .build());
    }

    private record Snapshot(ProcessDefinition parent, List<ProcessDefinition> steps) {
    }

    private Uni<Snapshot> snapshot(long parentId) {
        return processes.tree(parentId).chain(tree -> properties.forTree(parentId).chain(all -> servers.forEvents(
                tree.stream().map(ProcessRow::serverId).filter(Objects::nonNull).collect(Collectors.toSet()))
                .map(named -> {
                    Map<Long, List<ProcessProperty>> props = all.stream()
                            .filter(p -> !p.sensitive())
                            .collect(Collectors.groupingBy(PropertyRow::processId, Collectors.mapping(
                                    p -> new ProcessProperty(p.configGroup(), p.key(), p.value()),
                                    Collectors.toList())));
                    Map<Long, ServerRow> byId = named.stream()
                            .collect(Collectors.toMap(ServerRow::id, Function.identity()));
                    List<ProcessDefinition> defs = tree.stream()
                            .map(r -> ProcessMapping.event(r, props.getOrDefault(r.processId(), List.of()),
                                    r.serverId() == null ? null : byId.get(r.serverId())))
                            .toList();
                    return new Snapshot(defs.get(0), defs.subList(1, defs.size()));
                }))).chain(s -> deadlines.find(parentId).map(found -> found.map(d -> new Snapshot(
                ProcessDefinition.newBuilder(s.parent()).setDeadlines(d.event()).build(), s.steps())).orElse(s)));
    }
}
