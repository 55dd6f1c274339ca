package io.batchyard.lineage.graph;

import io.batchyard.lineage.column.ColumnEdge;
import io.batchyard.lineage.column.Endpoint;
import io.batchyard.lineage.column.QueryLineage;
import io.batchyard.lineage.column.StatementLineage;
import io.batchyard.lineage.column.TableUse;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/**
 * Stores a query's parsed lineage as nodes and relations. Base tables and their columns are shared by every query
 * (keyed {@code db.table[.column]}), so lineage connects across queries; temporary tables, functions and constants
 * are keyed by query and statement, so two queries' {@code upper} calls stay apart.
 */
@ApplicationScoped
public class ColumnGraphWriter {

    public void write(Handle tx, UUID queryId, QueryLineage lineage) {
        for (StatementLineage statement : lineage.statements()) {
            if (statement.parsed()) {
                new StatementWriter(tx, queryId, statement.index()).write(statement);
            }
        }
    }

    private static final class StatementWriter {
        private final Handle tx;
        private final UUID queryId;
        private final int statement;
        private final Map<String, Long> tables = new HashMap<>();

        StatementWriter(Handle tx, UUID queryId, int statement) {
            this.tx = tx;
            this.queryId = queryId;
            this.statement = statement;
        }

        void write(StatementLineage lineage) {
            for (TableUse use : lineage.tables()) {
                long table = table(use.name(), use.temp());
                List<String> known = use.knownColumns() == null ? List.of() : use.knownColumns();
                List<String> idle = use.idleColumns();
                for (int i = 0; i < known.size(); i++) {
                    String c = known.get(i);
                    // Output tables get all their columns; inputs' unreferenced columns are idle (type 5).
                    column(use.name(), use.temp(), table, c, i, idle.contains(c) ? NodeType.IDLE_COLUMN : NodeType.COLUMN);
                }
                for (String c : use.usedColumns()) {
                    if (!known.contains(c)) {
                        column(use.name(), use.temp(), table, c, null, NodeType.COLUMN);
                    }
                }
            }
            for (ColumnEdge edge : lineage.edges()) {
                long from = node(edge.from());
                long to = node(edge.to());
                tx.createUpdate("""
                                INSERT INTO lineage_relation (relation_id, query_id, src_node_id, target_node_id, indirect)
                                VALUES (:id, :query, :from, :to, :indirect) ON CONFLICT DO NOTHING""")
                        .bind("id", UUID.randomUUID()).bind("query", queryId).bind("from", from).bind("to", to)
                        .bind("indirect", edge.indirect())
                        .execute();
            }
        }

        private long node(Endpoint e) {
            return switch (e.kind()) {
                case COLUMN -> column(e.table(), e.temp(), table(e.table(), e.temp()), e.name(), null, NodeType.COLUMN);
                case FUNCTION -> local("fn", e, NodeType.FUNCTION);
                case CONSTANT -> local("const", e, NodeType.CONSTANT);
                case TABLE -> table(e.table(), e.temp());
            };
        }

        private String tableKey(String name, boolean temp) {
            return temp ? "tmp:" + queryId + ":" + statement + ":" + name : name;
        }

        private long table(String name, boolean temp) {
            return tables.computeIfAbsent(tableKey(name, temp), key -> upsert(key,
                    temp ? NodeType.TEMP_TABLE : NodeType.TABLE, name, null, null, temp ? queryId : null));
        }

        private long column(String table, boolean temp, long tableId, String column, Integer order, NodeType type) {
            return upsert(tableKey(table, temp) + "." + column, type, column, tableId, order, temp ? queryId : null);
        }

        private long local(String prefix, Endpoint e, NodeType type) {
            return upsert(prefix + ":" + queryId + ":" + statement + ":" + e.occurrence(), type, e.name(), null, null,
                    queryId);
        }

        /** A column once used by any query stays a column: LEAST keeps type 2 over idle type 5. */
        private long upsert(String key, NodeType type, String display, Long container, Integer order, UUID query) {
            return tx.createQuery("""
                            INSERT INTO lineage_node (node_key, node_type_id, display_name, container_node_id, node_order, query_id)
                            VALUES (:key, :type, :display, :container, :order, :query)
                            ON CONFLICT (node_key) DO UPDATE
                            SET node_type_id = LEAST(lineage_node.node_type_id, EXCLUDED.node_type_id),
                                node_order = COALESCE(EXCLUDED.node_order, lineage_node.node_order)
                            RETURNING node_id""")
                    .bind("key", key).bind("type", type.id()).bind("display", display)
                    .bind("container", container).bind("order", order).bind("query", query)
                    .mapTo(Long.class).one();
        }
    }
}
