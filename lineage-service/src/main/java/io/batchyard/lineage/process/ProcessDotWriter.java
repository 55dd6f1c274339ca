package io.batchyard.lineage.process;

import static io.batchyard.lineage.api.Dot.id;

import io.batchyard.lineage.api.Dot;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/** DOT of process lineage: a box per process, an edge per batch handed over (dashed while only queued). */
public final class ProcessDotWriter {

    private ProcessDotWriter() {
    }

    public static String write(Collection<Long> highlighted, Collection<ProcessLineageStore.ProcessEdge> edges) {
        Set<Long> processes = new LinkedHashSet<>(highlighted);
        edges.forEach(e -> {
            if (e.fromProcessId() != null) {
                processes.add(e.fromProcessId());
            }
            processes.add(e.toProcessId());
        });
        StringBuilder dot = new StringBuilder(Dot.HEADER);
        for (long p : processes) {
            dot.append("  ").append(id("p" + p)).append(" [shape=\"box\", label=").append(id("process " + p))
                    .append(highlighted.contains(p) ? ", style=\"bold\"" : "").append("];\n");
        }
        for (ProcessLineageStore.ProcessEdge e : new LinkedHashSet<>(edges)) {
            String from = e.fromProcessId() == null ? "files" : "p" + e.fromProcessId();
            if (e.fromProcessId() == null) {
                dot.append("  ").append(id(from)).append(" [shape=\"folder\", label=\"files\"];\n");
            }
            String label = "batch " + e.batchId() + (e.fromRun() != null ? " (run " + e.fromRun() + ")" : "");
            dot.append("  ").append(id(from)).append(" -> ").append(id("p" + e.toProcessId())).append(" [label=")
                    .append(id(label)).append(e.consumed() ? "" : ", style=\"dashed\"").append("];\n");
        }
        return dot.append("}\n").toString();
    }
}
