package io.batchyard.registry.workflow;

/**
 * Renders a {@link WorkflowGraph} as Graphviz DOT: ok-transitions only, recovery jumps dashed. Every id and label is
 * a quoted DOT string ({@link #quoted}): a node's label shows the text it was made from (a step's name as registered)
 * exactly, whatever characters it holds.
 */
public final class DotWriter {

    private DotWriter() {
    }

    public static String write(WorkflowGraph g) {
        StringBuilder dot = new StringBuilder();
        dot.append("digraph{\n");
        dot.append("graph [ratio=auto, ranksep=.25, nodesep=.25, fontname=\"verdana\", fontsize=7, label=\"Workflow ")
                .append(g.parent.processId()).append("\"];\n");
        dot.append("node [fontname=\"verdana\", fontsize=7];\nedge [fontname=\"verdana\", fontsize=7];\n");
        for (Node n : g.nodes) {
            dot.append(id(n)).append(" [label=").append(quoted(n.label)).append(style(n)).append("];\n");
        }
        for (Node n : g.nodes) {
            if (n.kind == Node.Kind.FORK) {
                n.paths.forEach(p -> edge(dot, n, p, ""));
            } else if (n.kind == Node.Kind.RECOVERY) {
                edge(dot, n, n.ok, "");
                g.recoveryCases.values().stream().distinct().forEach(t -> edge(dot, n, t, " [style=dashed]"));
            } else if (n.ok != null) {
                edge(dot, n, n.ok, "");
            }
        }
        dot.append("}\n");
        return dot.toString();
    }

    private static void edge(StringBuilder dot, Node from, Node to, String attrs) {
        dot.append(id(from)).append("->").append(id(to)).append(attrs).append(";\n");
    }

    private static String id(Node n) {
        return quoted(n.name.replace('-', '_'));
    }

    /**
     * {@code text} as a DOT double-quoted string that Graphviz shows as written. Inside one, {@code \"} is a quote and
     * a backslash starts an escape ({@code \N}, {@code \l}, ...), so both are escaped; Graphviz also reads HTML
     * entities in labels ({@code &lt;}), so {@code &} is written as {@code &amp;}. Line ends become DOT's centred line
     * break; other control characters and lone surrogates are shown as U+FFFD.
     */
    static String quoted(String text) {
        StringBuilder b = new StringBuilder(text.length() + 2).append('"');
        // Graphviz copies label text into the SVG, an XML document, so it may hold only what XML can carry.
        String shown = OozieWorkflowWriter.xmlCharacters(text.replace("\r\n", "\n").replace('\r', '\n'));
        shown.codePoints().forEach(cp -> {
            switch (cp) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '&' -> b.append("&amp;");
                case '\n' -> b.append("\\n");
                default -> b.appendCodePoint(cp);
            }
        });
        return b.append('"').toString();
    }

    private static String style(Node n) {
        return switch (n.kind) {
            case FORK -> ", shape=triangle";
            case JOIN -> ", shape=invtriangle";
            case KILL -> ", shape=doublecircle, style=filled, fillcolor=red";
            case END -> ", shape=doubleoctagon, style=filled, fillcolor=darkgreen, fontcolor=white";
            case START -> ", shape=oval, style=filled, fillcolor=darkolivegreen3";
            case INIT_JOB, HALT_JOB, INIT_STEP, HALT_STEP -> ", shape=box, style=rounded, penwidth=3";
            case TERM_STEP, TERM_JOB -> ", shape=box, style=rounded, penwidth=3, color=red";
            case RECOVERY -> ", shape=diamond";
            case ACTION -> ", shape=box";
        };
    }
}
