package io.batchyard.lineage.graph;

import static io.batchyard.lineage.LineageError.UNKNOWN_COLUMN;
import static io.batchyard.lineage.LineageError.UNKNOWN_TABLE;

import io.batchyard.api.ApiException;
import io.batchyard.api.CommonErrors;
import io.batchyard.api.access.Caller;
import io.batchyard.lineage.access.ProcessAccess;
import io.batchyard.lineage.access.Readable;
import io.batchyard.lineage.schema.TableName;
import io.batchyard.persistence.InOrder;
import io.batchyard.readmodel.ProcessDefinition;
import io.batchyard.readmodel.ProcessDefinitionRepository;
import io.batchyard.schemas.lineage.ColumnReach;
import io.batchyard.schemas.lineage.Reach;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Column lineage reads: up/downstream of a column, a table with its neighbours, and the impact of changing a table.
 * Each shows what the queries of processes the caller may read contributed: the walk follows only their relations,
 * and a column or table that only other processes' queries name is not known to the caller.
 */
@ApplicationScoped
public class ColumnLineageService {

    /** Impact closure stops here; real pipelines are far shallower, and this bounds a cyclic graph. */
    static final int IMPACT_DEPTH = 50;

    private final ColumnGraphRepository graph;
    private final ColumnGraphReader reader;
    private final ProcessAccess access;
    private final ProcessDefinitionRepository definitions;

    public ColumnLineageService(ColumnGraphRepository graph, ColumnGraphReader reader, ProcessAccess access,
                                ProcessDefinitionRepository definitions) {
        this.graph = graph;
        this.reader = reader;
        this.access = access;
        this.definitions = definitions;
    }

    /**
     * For each {@code db.table.column}, the jobs (parent processes) a change of it reaches: those whose queries made
     * a relation anywhere downstream of it, to {@link #IMPACT_DEPTH} hops, over every process's queries (the caller
     * is a service that checks its own caller's permissions). A step's query counts for its parent, the unit a
     * backfill re-runs. A column no relation names is not known.
     */
    @WithSession
    public Uni<Reach> reach(List<String> columns) {
        return InOrder.map(columns, this::reach).map(Reach::new);
    }

    private Uni<ColumnReach> reach(String qualified) {
        int dot = qualified.lastIndexOf('.');
        if (dot <= 0 || dot == qualified.length() - 1) {
            throw CommonErrors.INVALID_REQUEST.exception(
                    "a column is named db.table.column: " + qualified);
        }
        String key = TableName.parse(qualified.substring(0, dot)).qualified() + "."
                + TableName.column(qualified.substring(dot + 1));
        return graph.byKey(key).chain(start -> {
            if (start.isEmpty()) {
                return Uni.createFrom().item(new ColumnReach(qualified, false, List.of()));
            }
            return reader.walk(List.of(start.get().id()), Direction.DOWNSTREAM, IMPACT_DEPTH, Readable.EVERYTHING)
                    .chain(g -> jobsOf(g.edges().stream().map(ColumnGraph.Edge::processId)
                            .collect(Collectors.toCollection(TreeSet::new))))
                    .map(jobs -> new ColumnReach(qualified, true, jobs));
        });
    }

    /** Each process as its job: a step's parent, a parent itself (one the registry never announced, as it is). */
    private Uni<List<Long>> jobsOf(Set<Long> processIds) {
        return definitions.findAll(processIds).map(found -> {
            Map<Long, Long> parents = found.stream().filter(d -> d.parentProcessId() != null)
                    .collect(Collectors.toMap(ProcessDefinition::processId, ProcessDefinition::parentProcessId));
            return processIds.stream().map(id -> parents.getOrDefault(id, id))
                    .collect(Collectors.toCollection(TreeSet::new)).stream().toList();
        });
    }

    /** The graph around {@code table.column}. */
    @WithSession
    public Uni<ColumnGraph> column(Caller caller, TableName table, String column, Direction direction, int depth) {
        String key = table.qualified() + "." + column;
        Supplier<ApiException> unknown = () -> UNKNOWN_COLUMN.exception("no lineage is known for column " + key);
        return access.readable(caller).chain(readable -> graph.byKey(key)
                .map(start -> start.orElseThrow(unknown))
                .call(start -> graph.hiddenFrom(readable, List.of(start.id())).invoke(hidden -> {
                    if (!hidden.isEmpty()) {
                        throw unknown.get();
                    }
                }))
                .chain(start -> reader.walk(List.of(start.id()), direction, depth, readable)));
    }

    /** The table with all its columns (idle ones too) and what lies up/downstream of them. */
    @WithSession
    public Uni<ColumnGraph> table(Caller caller, TableName table, Direction direction, int depth) {
        return access.readable(caller).chain(readable -> tableColumns(table, readable)
                .chain(columns -> reader.walk(columns, direction, depth, readable)));
    }

    @WithSession
    public Uni<Impact> impact(Caller caller, TableName name) {
        return access.readable(caller).chain(readable -> tableColumns(name, readable)
                .chain(columns -> reader.walk(columns, Direction.DOWNSTREAM, IMPACT_DEPTH, readable))
                .map(g -> impact(name, g)));
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

    /**
     * The table's columns a walk starts from (the table itself when none is known), without those that only queries
     * the reader may not read name; a table that only such queries name is unknown.
     */
    private Uni<List<Long>> tableColumns(TableName name, Readable readable) {
        Supplier<ApiException> unknown = () -> UNKNOWN_TABLE.exception("no lineage is known for table " + name);
        return graph.byKey(name.qualified())
                .map(node -> node.orElseThrow(unknown))
                .chain(node -> graph.columnsOf(node.id()).chain(columns -> {
                    List<Long> ids = columns.stream().map(ColumnGraph.Node::id).toList();
                    List<Long> asked = new ArrayList<>(ids);
                    asked.add(node.id());
                    return graph.hiddenFrom(readable, asked).map(hidden -> {
                        if (hidden.contains(node.id())) {
                            throw unknown.get();
                        }
                        List<Long> shown = ids.stream().filter(id -> !hidden.contains(id)).toList();
                        return shown.isEmpty() ? List.of(node.id()) : shown;
                    });
                }));
    }
}
