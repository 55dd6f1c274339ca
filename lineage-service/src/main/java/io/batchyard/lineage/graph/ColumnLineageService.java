package io.batchyard.lineage.graph;

import static io.batchyard.lineage.LineageError.UNKNOWN_COLUMN;
import static io.batchyard.lineage.LineageError.UNKNOWN_TABLE;

import io.batchyard.lineage.schema.TableName;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Column lineage reads: up/downstream of a column, a table with its neighbours, and the impact of changing a table. */
@ApplicationScoped
public class ColumnLineageService {

    /** Impact closure stops here; real pipelines are far shallower, and this bounds a cyclic graph. */
    static final int IMPACT_DEPTH = 50;

    private final ColumnGraphRepository graph;
    private final ColumnGraphReader reader;

    public ColumnLineageService(ColumnGraphRepository graph, ColumnGraphReader reader) {
        this.graph = graph;
        this.reader = reader;
    }

    /** The graph around {@code table.column}. */
    @WithSession
    public Uni<ColumnGraph> column(TableName table, String column, Direction direction, int depth) {
        String key = table.qualified() + "." + column;
        return graph.byKey(key)
                .map(start -> start.orElseThrow(() -> UNKNOWN_COLUMN.exception("no lineage is known for column " + key)))
                .chain(start -> reader.walk(List.of(start.id()), direction, depth));
    }

    /** The table with all its columns (idle ones too) and what lies up/downstream of them. */
    @WithSession
    public Uni<ColumnGraph> table(TableName table, Direction direction, int depth) {
        return tableColumns(table).chain(columns -> reader.walk(columns, direction, depth));
    }

    @WithSession
    public Uni<Impact> impact(TableName name) {
        return tableColumns(name)
                .chain(columns -> reader.walk(columns, Direction.DOWNSTREAM, IMPACT_DEPTH))
                .map(g -> impact(name, g));
    }

    private static Impact impact(TableName name, ColumnGraph graph) {
        Map<Long, ColumnGraph.Node> byId = graph.nodes().stream()
                .collect(Collectors.toMap(ColumnGraph.Node::id, n -> n));
        Set<Long> reached = graph.edges().stream().map(ColumnGraph.Edge::to).collect(Collectors.toSet());
        List<Impact.ColumnRef> columns = reached.stream().map(byId::get).filter(Objects::nonNull)
                .filter(n -> n.type().isColumn() && !n.temp())
                .map(n -> new Impact.ColumnRef(n.table(), n.name()))
                .sorted(Comparator.comparing(Impact.ColumnRef::table).thenComparing(Impact.ColumnRef::column)).toList();
        // A table reached by an indirect relation (filtered or joined by this table) is impacted as a whole.
        Set<String> tables = reached.stream().map(byId::get).filter(Objects::nonNull)
                .filter(n -> n.type() == NodeType.TABLE).map(ColumnGraph.Node::name)
                .collect(Collectors.toCollection(TreeSet::new));
        columns.forEach(c -> tables.add(c.table()));
        tables.remove(name.qualified());
        return new Impact(name.qualified(), columns, tables,
                graph.edges().stream().map(ColumnGraph.Edge::processId).collect(Collectors.toCollection(TreeSet::new)),
                graph.edges().stream().map(ColumnGraph.Edge::queryId).collect(Collectors.toCollection(TreeSet::new)),
                graph);
    }

    private Uni<List<Long>> tableColumns(TableName name) {
        return graph.byKey(name.qualified())
                .map(node -> node.orElseThrow(() -> UNKNOWN_TABLE.exception("no lineage is known for table " + name)))
                .chain(node -> graph.columnsOf(node.id())
                        .map(columns -> columns.isEmpty() ? List.of(node.id())
                                : columns.stream().map(ColumnGraph.Node::id).toList()));
    }
}
