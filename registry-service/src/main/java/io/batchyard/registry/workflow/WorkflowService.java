package io.batchyard.registry.workflow;

import io.batchyard.api.access.Permission;
import io.batchyard.registry.RegistryError;
import io.batchyard.registry.application.AccessGuard;
import io.batchyard.registry.process.ProcessRow;
import io.batchyard.registry.process.ProcessService;
import io.batchyard.registry.process.PropertyRow;
import io.batchyard.registry.process.PropertyService;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import static io.batchyard.api.CommonErrors.NOT_FOUND;

/**
 * Generates a parent process's workflow from the registry's metadata. The metadata is read in one session; the
 * writers are pure; rendering SVG starts Graphviz and waits for it (at most {@link DotRenderer}'s deadline), so it
 * runs on a worker thread once the data is loaded, never on the event loop.
 */
@ApplicationScoped
public class WorkflowService {

    public enum Format { OOZIE, DOT, SVG, AIRFLOW }

    private final ProcessService processes;
    private final PropertyService properties;
    private final AccessGuard access;
    private final DotRenderer graphviz;

    public WorkflowService(ProcessService processes, PropertyService properties, AccessGuard access,
                           DotRenderer graphviz) {
        this.processes = processes;
        this.properties = properties;
        this.access = access;
        this.graphviz = graphviz;
    }

    public Uni<String> generate(long processId, Format format) {
        Uni<WorkflowGraph> graph = graph(processId, format);
        return switch (format) {
            case OOZIE -> graph.map(OozieWorkflowWriter::write);
            case DOT -> graph.map(DotWriter::write);
            case AIRFLOW -> graph.map(AirflowDagWriter::write);
            case SVG -> graph.map(DotWriter::write).emitOn(Infrastructure.getDefaultWorkerPool()).map(graphviz::svg);
        };
    }

    /** Workflow type of a parent that runs on its own, outside any workflow engine. */
    static final int STAND_ALONE = 2;

    /**
     * The workflow graph of parent {@code processId}, from its live steps and their properties. A stand-alone parent
     * is not run by a workflow engine, so asking for its Oozie XML or Airflow DAG is refused (409, 222) rather than
     * answered with a workflow nobody deploys; its DOT picture is still drawn.
     */
    @WithSession
    Uni<WorkflowGraph> graph(long processId, Format format) {
        return access.onProcess(processId, Permission.READ).chain(() -> processes.find(processId))
                .map(found -> found.filter(p -> !p.deleted()).orElseThrow(() -> NOT_FOUND.exception(
                        "process " + processId + " does not exist or is deleted")))
                .chain(process -> processes.treeOf(process.treeId()))
                .invoke(tree -> {
                    ProcessRow parent = tree.get(0);
                    if (parent.processId() != processId) {
                        throw RegistryError.WORKFLOW_SHAPE.exception("process " + processId + " is a step; generate"
                                + " the workflow of its parent " + parent.processId());
                    }
                    if ((format == Format.OOZIE || format == Format.AIRFLOW) && parent.workflowTypeId() == STAND_ALONE) {
                        throw RegistryError.WORKFLOW_TYPE_MISMATCH.exception("process " + processId + " has workflow type "
                                + STAND_ALONE + " (stand alone) and runs outside Oozie and Airflow; ask for format=dot, or"
                                + " change its workflowTypeId to 1 (oozie) or 3 (airflow)");
                    }
                })
                .chain(tree -> properties.forTree(processId).map(all -> {
                    Map<Long, List<PropertyRow>> props = all.stream()
                            .collect(Collectors.groupingBy(PropertyRow::processId));
                    Long parentServer = tree.get(0).serverId();
                    List<StepSpec> steps = tree.subList(1, tree.size()).stream().filter(s -> !s.deleted())
                            .map(s -> spec(s, props.getOrDefault(s.processId(), List.of()), parentServer)).toList();
                    return WorkflowGraph.of(spec(tree.get(0), props.getOrDefault(processId, List.of()), null), steps,
                            new ActionFactory());
                }));
    }

    /** A step without a server of its own names its parent's ({@code inherited}). */
    static StepSpec spec(ProcessRow r, List<PropertyRow> props, Long inherited) {
        Map<String, List<Map.Entry<String, String>>> groups = new LinkedHashMap<>();
        for (PropertyRow p : props) {
            groups.computeIfAbsent(p.configGroup(), g -> new java.util.ArrayList<>())
                    .add(new AbstractMap.SimpleImmutableEntry<>(p.key(), p.value()));
        }
        return new StepSpec(r.processId(), r.name(), r.processTypeId(), r.canRecover(), r.nextProcessIds(),
                r.enqueuingProcessIds(), r.description(), groups, r.serverId() != null ? r.serverId() : inherited);
    }
}
