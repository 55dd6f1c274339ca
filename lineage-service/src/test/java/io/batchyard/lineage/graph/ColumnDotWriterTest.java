package io.batchyard.lineage.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.teststack.Graphviz;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ColumnDotWriterTest {

    @Test
    void tablesFunctionsConstantsAndIdleColumnsRenderWithoutGraphvizWarnings() {
        UUID q = UUID.randomUUID();
        ColumnGraph graph = new ColumnGraph(List.of(
                new ColumnGraph.Node(1, "s.t", NodeType.TABLE, "s.t", null, null, null, false),
                new ColumnGraph.Node(2, "s.t.a<b>", NodeType.COLUMN, "a<b>", 1L, "s.t", 0, false),
                new ColumnGraph.Node(3, "s.t.idle", NodeType.IDLE_COLUMN, "idle", 1L, "s.t", 1, false),
                new ColumnGraph.Node(4, "tmp:x", NodeType.TEMP_TABLE, "sub", null, null, null, true),
                new ColumnGraph.Node(5, "tmp:x.c", NodeType.COLUMN, "c", 4L, "sub", null, true),
                new ColumnGraph.Node(6, "fn:1", NodeType.FUNCTION, "upper", null, null, null, false),
                new ColumnGraph.Node(7, "const:1", NodeType.CONSTANT, "'a \"quoted\" b'", null, null, null, false)),
                List.of(new ColumnGraph.Edge(UUID.randomUUID(), 2, 6, q, 1, null, false),
                        new ColumnGraph.Edge(UUID.randomUUID(), 6, 5, q, 1, null, false),
                        new ColumnGraph.Edge(UUID.randomUUID(), 7, 5, q, 1, 9L, false),
                        new ColumnGraph.Edge(UUID.randomUUID(), 2, 4, q, 1, 9L, true)));
        String dot = ColumnDotWriter.write(graph);
        assertThat(dot).contains("\"n1\":\"c2\" -> \"n6\"").contains("a&lt;b&gt;").contains("idle (idle)")
                .contains("Temp sub").contains("\"n1\":\"c2\" -> \"n4\":\"title\" [color=grey33, style=\"dashed\"");
        Graphviz.Rendering r = Graphviz.render(dot);
        assertThat(r.exitCode()).as(r.warnings() + "\n" + dot).isZero();
        assertThat(r.warnings()).as("graphviz warnings").isEmpty();
        assertThat(r.svg()).contains("<svg").contains("upper");
    }
}
