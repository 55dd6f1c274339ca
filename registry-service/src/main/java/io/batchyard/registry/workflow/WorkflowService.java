package io.batchyard.registry.workflow;

import static io.batchyard.api.CommonErrors.NOT_FOUND;

import io.batchyard.registry.RegistryError;
import io.batchyard.registry.process.ProcessDao;
import io.batchyard.registry.process.ProcessRow;
import io.batchyard.registry.process.PropertyDao;
import io.batchyard.registry.process.PropertyRow;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jdbi.v3.core.Jdbi;

/** Generates a parent process's workflow from the registry's metadata. */
@ApplicationScoped
public class WorkflowService {

    public enum Format { OOZIE, DOT, SVG }

    @Inject
    Jdbi jdbi;

    @Inject
    ProcessDao processes;

    @Inject
    PropertyDao properties;

    @ConfigProperty(name = "batchyard.graphviz.dot", defaultValue = "dot")
    String dotCommand;

    @ConfigProperty(name = "batchyard.graphviz.timeout", defaultValue = "PT20S")
    Duration dotTimeout;

    public String generate(long processId, Format format) {
        WorkflowGraph graph = graph(processId);
        return switch (format) {
            case OOZIE -> OozieWorkflowWriter.write(graph);
            case DOT -> DotWriter.write(graph);
            case SVG -> svg(DotWriter.write(graph));
        };
    }

    WorkflowGraph graph(long processId) {
        return jdbi.withHandle(h -> {
            List<ProcessRow> tree = processes.find(h, processId)
                    .filter(p -> !p.deleted())
                    .map(p -> processes.tree(h, p.treeId()))
                    .orElseThrow(() -> NOT_FOUND.exception("process " + processId + " does not exist or is deleted"));
            ProcessRow parent = tree.get(0);
            if (parent.processId() != processId) {
                throw RegistryError.WORKFLOW_SHAPE.exception("process " + processId + " is a step; generate the workflow"
                        + " of its parent " + parent.processId());
            }
            Map<Long, List<PropertyRow>> props = properties.forTree(h, processId).stream()
                    .collect(Collectors.groupingBy(PropertyRow::processId));
            List<StepSpec> steps = tree.subList(1, tree.size()).stream().filter(s -> !s.deleted())
                    .map(s -> spec(s, props.getOrDefault(s.processId(), List.of()))).toList();
            return WorkflowGraph.of(spec(parent, props.getOrDefault(processId, List.of())), steps, new ActionFactory());
        });
    }

    static StepSpec spec(ProcessRow r, List<PropertyRow> props) {
        Map<String, List<Map.Entry<String, String>>> groups = new LinkedHashMap<>();
        for (PropertyRow p : props) {
            groups.computeIfAbsent(p.configGroup(), g -> new java.util.ArrayList<>())
                    .add(new AbstractMap.SimpleImmutableEntry<>(p.key(), p.value()));
        }
        return new StepSpec(r.processId(), r.name(), r.processTypeId(), r.canRecover(), r.nextProcessIds(),
                r.enqueuingProcessIds(), r.description(), groups);
    }

    /** Renders DOT to SVG with Graphviz's {@code dot}; its absence is a 503, not a 500. */
    String svg(String dot) {
        try {
            Process p = new ProcessBuilder(dotCommand, "-Tsvg").redirectErrorStream(false).start();
            p.getOutputStream().write(dot.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(dotTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw RegistryError.WORKFLOW_RENDERER.exception("Graphviz dot did not finish within " + dotTimeout);
            }
            if (p.exitValue() != 0) {
                String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                throw RegistryError.WORKFLOW_RENDERER.exception("Graphviz dot failed: " + err.lines().findFirst().orElse(""));
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw RegistryError.WORKFLOW_RENDERER.exception("Graphviz 'dot' is not installed or not runnable ("
                    + dotCommand + "); install the graphviz package or ask for format=dot");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw RegistryError.WORKFLOW_RENDERER.exception("interrupted while rendering");
        }
    }
}
