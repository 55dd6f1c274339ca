package io.batchyard.lineage.graph;

import static io.batchyard.lineage.render.Dot.html;
import static io.batchyard.lineage.render.Dot.id;

import io.batchyard.lineage.render.Dot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * DOT of a column graph in the reference's shape: each table is one HTML-table node with a port per column, functions
 * are small ellipses, constants plain text, and edges go column port to column port.
 */
public final class ColumnDotWriter {

    private ColumnDotWriter() {
    }

    public static String write(ColumnGraph graph) {
        Map<Long, ColumnGraph.Node> byId = new HashMap<>();
        Map<Long, List<ColumnGraph.Node>> columnsByTable = new LinkedHashMap<>();
        for (ColumnGraph.Node n : graph.nodes()) {
            byId.put(n.id(), n);
            if (n.type() == NodeType.TABLE || n.type() == NodeType.TEMP_TABLE) {
                columnsByTable.putIfAbsent(n.id(), new ArrayList<>());
            }
        }
        for (ColumnGraph.Node n : graph.nodes()) {
            if (n.type().isColumn() && n.tableId() != null) {
                columnsByTable.computeIfAbsent(n.tableId(), k -> new ArrayList<>()).add(n);
            }
        }
        StringBuilder dot = new StringBuilder(Dot.HEADER);
        columnsByTable.forEach((tableId, columns) -> {
            ColumnGraph.Node table = byId.get(tableId);
            String name = table == null ? columns.get(0).table() : table.name();
            boolean temp = table != null ? table.type() == NodeType.TEMP_TABLE : columns.get(0).temp();
            dot.append("  ").append(id("n" + tableId)).append(" [shape=\"plaintext\"")
                    .append(temp ? ", color=\"gray\"" : "")
                    .append(", label=<<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\"><TR><TD PORT=\"title\" BGCOLOR=\"")
                    .append(temp ? "gray90" : "lightblue").append("\"><B>").append(temp ? "Temp " : "Table ")
                    .append(html(name)).append("</B></TD></TR>");
            columns.sort(java.util.Comparator.comparing((ColumnGraph.Node c) -> c.order() == null ? Integer.MAX_VALUE : c.order())
                    .thenComparing(ColumnGraph.Node::name));
            for (ColumnGraph.Node c : columns) {
                boolean idle = c.type() == NodeType.IDLE_COLUMN;
                dot.append("<TR><TD PORT=\"c").append(c.id()).append("\"").append(idle ? " BGCOLOR=\"gray95\"" : "")
                        .append(">").append(idle ? "<I>" : "").append(html(c.name())).append(idle ? " (idle)</I>" : "")
                        .append("</TD></TR>");
            }
            dot.append("</TABLE>>];\n");
        });
        for (ColumnGraph.Node n : graph.nodes()) {
            if (n.type() == NodeType.FUNCTION) {
                dot.append("  ").append(id("n" + n.id())).append(" [label=").append(id(n.name()))
                        .append(" shape=\"ellipse\" width=0.1 height=0.025];\n");
            } else if (n.type() == NodeType.CONSTANT) {
                dot.append("  ").append(id("n" + n.id())).append(" [label=").append(id(n.name()))
                        .append(" shape=\"none\"];\n");
            }
        }
        for (ColumnGraph.Edge e : graph.edges()) {
            dot.append("  ").append(endpoint(byId.get(e.from()), e.from())).append(" -> ")
                    .append(endpoint(byId.get(e.to()), e.to())).append(" [color=grey33, ")
                    .append(e.indirect() ? "style=\"dashed\", " : "").append("id=").append(id(e.id().toString()))
                    .append("];\n");
        }
        return dot.append("}\n").toString();
    }

    private static String endpoint(ColumnGraph.Node n, long nodeId) {
        if (n != null && n.type().isColumn() && n.tableId() != null) {
            return id("n" + n.tableId()) + ":" + id("c" + n.id());
        }
        if (n != null && (n.type() == NodeType.TABLE || n.type() == NodeType.TEMP_TABLE)) {
            // an indirect edge ends at the table's title row, apart from the column rows' own edges
            return id("n" + nodeId) + ":\"title\"";
        }
        return id("n" + nodeId);
    }
}
