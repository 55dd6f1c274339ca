package io.batchyard.lineage.process;

import static io.batchyard.lineage.render.Dot.id;

import io.batchyard.lineage.render.Dot;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.LinkedHashSet;
import java.util.Set;

/** DOT of process lineage: a box per process, an edge per batch handed over (dashed while only queued). */
public final class ProcessDotWriter {

    private ProcessDotWriter() {
    }

    public static String write(Collection<Long> highlighted, Collection<ProcessLineage.ProcessEdge> edges) {
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
        for (ProcessLineage.ProcessEdge e : new LinkedHashSet<>(edges)) {
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

    /** A batch's hand-overs: its sources into its producer, and the batch into its consumers (or queues while unread). */
    public static String write(BatchLineage b) {
        List<ProcessLineage.ProcessEdge> edges = new ArrayList<>();
        if (b.producedBy() != null) {
            for (BatchLineage.SourceBatch s : b.sources()) {
                edges.add(new ProcessLineage.ProcessEdge(s.producedBy() == null ? null : s.producedBy().processId(),
                        b.producedBy().processId(), null, s.sourceBatchId(),
                        s.producedBy() == null ? null : s.producedBy().instanceExecId(), b.producedBy().instanceExecId(), true));
            }
        }
        Long producer = b.producedBy() == null ? null : b.producedBy().processId();
        Long producerRun = b.producedBy() == null ? null : b.producedBy().instanceExecId();
        for (ProcessLineage.Run consumer : b.consumedBy()) {
            edges.add(new ProcessLineage.ProcessEdge(producer, consumer.processId(), null, b.batchId(), producerRun,
                    consumer.instanceExecId(), true));
        }
        for (ProcessLineage.Enqueue e : b.enqueuedTo()) {
            if (b.consumedBy().isEmpty()) {
                edges.add(new ProcessLineage.ProcessEdge(e.sourceProcessId(), e.consumerProcessId(),
                        e.consumerProcessId(), b.batchId(), producerRun, null, false));
            }
        }
        return write(b.producedBy() == null ? List.of() : List.of(b.producedBy().processId()), edges);
    }

    /** A process with its upstream and downstream hand-overs. */
    public static String write(ProcessLineage p) {
        List<ProcessLineage.ProcessEdge> all = new ArrayList<>(p.upstream());
        all.addAll(p.downstream());
        return write(List.of(p.processId()), all);
    }
}
