package io.batchyard.lineage.graph;

import static io.batchyard.lineage.LineageError.UNKNOWN_COLUMN;
import static io.batchyard.lineage.LineageError.UNKNOWN_TABLE;

import io.batchyard.api.CommonErrors;
import io.batchyard.lineage.api.GraphFormat;
import io.batchyard.lineage.api.Graphviz;
import io.batchyard.lineage.schema.TableName;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/** Column lineage: up/downstream of a column, a table with its neighbours, and the impact of changing a table. */
@Path("/lineage")
@Produces({"application/json", GraphFormat.DOT_MEDIA_TYPE, GraphFormat.SVG_MEDIA_TYPE})
@Tag(name = "column lineage")
public class ColumnLineageResource {

    /** Impact closure stops here; real pipelines are far shallower, and this bounds a cyclic graph. */
    static final int IMPACT_DEPTH = 50;

    public record ColumnRef(String table, String column) {
    }

    public record Impact(String table, List<ColumnRef> columns, Set<String> tables, Set<Long> processes,
                         Set<UUID> queries, ColumnGraph graph) {
    }

    @Inject
    Jdbi jdbi;

    @Inject
    ColumnGraphReader reader;

    @Inject
    Graphviz graphviz;

    @GET
    @Path("columns")
    @Operation(summary = "Columns upstream or downstream of table.column, to a depth (function hops are free)")
    public Response column(@QueryParam("table") String table, @QueryParam("column") String column,
                           @QueryParam("direction") @DefaultValue("both") String direction,
                           @QueryParam("depth") @DefaultValue("3") @Min(1) @Max(50) int depth,
                           @QueryParam("format") String format) {
        GraphFormat f = GraphFormat.parse(format);
        TableName name = TableName.parse(table);
        String key = name.qualified() + "." + TableName.column(column);
        ColumnGraphReader.Direction d = direction(direction);
        ColumnGraph graph = jdbi.withHandle(h -> {
            ColumnGraph.Node start = reader.byKey(h, key)
                    .orElseThrow(() -> UNKNOWN_COLUMN.exception("no lineage is known for column " + key));
            return reader.walk(h, List.of(start.id()), d, depth);
        });
        return f.respond(graph, () -> ColumnDotWriter.write(graph), graphviz);
    }

    @GET
    @Path("tables/{table}")
    @Operation(summary = "A table with all its columns (idle ones included) and the columns up/downstream, to a depth")
    public Response table(@PathParam("table") String table,
                          @QueryParam("direction") @DefaultValue("both") String direction,
                          @QueryParam("depth") @DefaultValue("1") @Min(1) @Max(50) int depth,
                          @QueryParam("format") String format) {
        GraphFormat f = GraphFormat.parse(format);
        TableName name = TableName.parse(table);
        ColumnGraphReader.Direction d = direction(direction);
        ColumnGraph graph = jdbi.withHandle(h -> reader.walk(h, tableColumns(h, name), d, depth));
        return f.respond(graph, () -> ColumnDotWriter.write(graph), graphviz);
    }

    @GET
    @Path("tables/{table}/impact")
    @Operation(summary = "Everything downstream of a table: columns, tables, processes and queries that depend on it")
    public Response impact(@PathParam("table") String table, @QueryParam("format") String format) {
        GraphFormat f = GraphFormat.parse(format);
        TableName name = TableName.parse(table);
        Impact impact = jdbi.withHandle(h -> {
            ColumnGraph graph = reader.walk(h, tableColumns(h, name), ColumnGraphReader.Direction.DOWNSTREAM, IMPACT_DEPTH);
            Map<Long, ColumnGraph.Node> byId = graph.nodes().stream()
                    .collect(Collectors.toMap(ColumnGraph.Node::id, n -> n));
            Set<Long> reached = graph.edges().stream().map(ColumnGraph.Edge::to).collect(Collectors.toSet());
            List<ColumnRef> columns = reached.stream().map(byId::get).filter(Objects::nonNull)
                    .filter(n -> n.type().isColumn() && !n.temp())
                    .map(n -> new ColumnRef(n.table(), n.name()))
                    .sorted(java.util.Comparator.comparing(ColumnRef::table).thenComparing(ColumnRef::column)).toList();
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
        });
        return f.respond(impact, () -> ColumnDotWriter.write(impact.graph()), graphviz);
    }

    private List<Long> tableColumns(Handle h, TableName name) {
        ColumnGraph.Node node = reader.byKey(h, name.qualified())
                .orElseThrow(() -> UNKNOWN_TABLE.exception("no lineage is known for table " + name));
        List<Long> columns = reader.columnsOf(h, node.id()).stream().map(ColumnGraph.Node::id).toList();
        return columns.isEmpty() ? List.of(node.id()) : columns;
    }

    private static ColumnGraphReader.Direction direction(String value) {
        try {
            return ColumnGraphReader.Direction.valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw CommonErrors.INVALID_REQUEST.exception("direction must be upstream, downstream or both");
        }
    }
}
