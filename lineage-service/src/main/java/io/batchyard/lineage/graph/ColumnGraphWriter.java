package io.batchyard.lineage.graph;

import io.batchyard.lineage.column.ColumnEdge;
import io.batchyard.lineage.column.Endpoint;
import io.batchyard.lineage.column.QueryLineage;
import io.batchyard.lineage.column.StatementLineage;
import io.batchyard.lineage.column.TableUse;
import io.batchyard.persistence.Columns;
import io.batchyard.persistence.InOrder;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Stores a query's parsed lineage as nodes and relations, in the caller's transaction. Base tables and their columns
 * are shared by every query (keyed {@code db.table[.column]}), so lineage connects across queries; temporary tables,
 * functions and constants are keyed by query and statement, so two queries' {@code upper} calls stay apart.
 */
@ApplicationScoped
public class ColumnGraphWriter {

    private final ColumnGraphRepository graph;

    public ColumnGraphWriter(ColumnGraphRepository graph) {
        this.graph = graph;
    }

    public Uni<Void> write(UUID queryId, QueryLineage lineage) {
        return InOrder.each(lineage.statements().stream().filter(StatementLineage::parsed).toList(),
                statement -> new StatementWriter(queryId, statement.index()).write(statement));
    }

    private final class StatementWriter {
        private final UUID queryId;
        private final int statement;
        private final Map<String, Long> tables = new HashMap<>();

        StatementWriter(UUID queryId, int statement) {
            this.queryId = queryId;
            this.statement = statement;
        }

        Uni<Void> write(StatementLineage lineage) {
            return InOrder.each(lineage.tables(), this::table)
                    .chain(() -> InOrder.each(lineage.edges(), this::edge));
        }

        private Uni<Void> table(TableUse use) {
            List<String> known = use.knownColumns() == null ? List.of() : use.knownColumns();
            List<String> idle = use.idleColumns();
            return table(use.name(), use.temp()).chain(table -> {
                // Output tables get all their columns; inputs' unreferenced columns are idle (type 5).
                Uni<Void> knownColumns = InOrder.each(IntStream.range(0, known.size()).boxed().toList(),
                        i -> column(use.name(), use.temp(), table, known.get(i), i,
                                idle.contains(known.get(i)) ? NodeType.IDLE_COLUMN : NodeType.COLUMN));
                return knownColumns.chain(() -> InOrder.each(use.usedColumns().stream().filter(c -> !known.contains(c))
                        .toList(), c -> column(use.name(), use.temp(), table, c, null, NodeType.COLUMN)));
            });
        }

        private Uni<Void> edge(ColumnEdge edge) {
            return node(edge.from()).chain(from -> node(edge.to())
                    .chain(to -> graph.insertRelation(queryId, from, to, edge.indirect(), edge.clauses().isEmpty()
                            ? null : edge.clauses().stream().map(Enum::name).collect(Collectors.joining(",")))));
        }

        private Uni<Long> node(Endpoint e) {
            return switch (e.kind()) {
                case COLUMN -> table(e.table(), e.temp())
                        .chain(table -> column(e.table(), e.temp(), table, e.name(), null, NodeType.COLUMN));
                case FUNCTION -> local("fn", e, NodeType.FUNCTION);
                case CONSTANT -> local("const", e, NodeType.CONSTANT);
                case TABLE -> table(e.table(), e.temp());
            };
        }

        private String tableKey(String name, boolean temp) {
            return temp ? "tmp:" + queryId + ":" + statement + ":" + name : name;
        }

        private Uni<Long> table(String name, boolean temp) {
            String key = tableKey(name, temp);
            Long known = tables.get(key);
            if (known != null) {
                return Uni.createFrom().item(known);
            }
            return graph.upsertNode(key, temp ? NodeType.TEMP_TABLE : NodeType.TABLE, name, null, null,
                    temp ? queryId : null).invoke(id -> tables.put(key, id));
        }

        private Uni<Long> column(String table, boolean temp, long tableId, String column, Integer order, NodeType type) {
            return graph.upsertNode(tableKey(table, temp) + "." + column, type, column, tableId, order,
                    temp ? queryId : null);
        }

        private Uni<Long> local(String prefix, Endpoint e, NodeType type) {
            return graph.upsertNode(prefix + ":" + queryId + ":" + statement + ":" + e.occurrence(), type, e.name(),
                    null, null, queryId);
        }
    }
}
