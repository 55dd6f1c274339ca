package io.batchyard.lineage.graph;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jdbi.v3.core.Handle;

/** Walks the column graph from a node, up- or downstream. */
@ApplicationScoped
public class ColumnGraphReader {

    public enum Direction { UPSTREAM, DOWNSTREAM, BOTH }

    private static final String NODE = """
            SELECT n.node_id, n.node_key, n.node_type_id, n.display_name, n.container_node_id, t.display_name,
                   n.node_order, COALESCE(t.node_type_id, n.node_type_id) = 4
              FROM lineage_node n LEFT JOIN lineage_node t ON t.node_id = n.container_node_id""";
    private static final String EDGE = """
            SELECT r.relation_id, r.src_node_id, r.target_node_id, r.query_id, q.process_id, q.instance_exec_id,
                   r.indirect
              FROM lineage_relation r JOIN lineage_query q ON q.query_id = r.query_id""";

    public Optional<ColumnGraph.Node> byKey(Handle h, String key) {
        return h.createQuery(NODE + " WHERE n.node_key = :key").bind("key", key).map((rs, ctx) -> node(rs)).findOne();
    }

    public List<ColumnGraph.Node> columnsOf(Handle h, long tableId) {
        return h.createQuery(NODE + " WHERE n.container_node_id = :t ORDER BY n.node_order NULLS LAST, n.display_name")
                .bind("t", tableId).map((rs, ctx) -> node(rs)).list();
    }

    /**
     * Breadth-first from {@code start}. Depth counts hops between columns: passing through a function, constant or
     * table node costs nothing, so {@code depth=1} reaches the columns one transformation away. Indirect relations
     * end at a table: upstream of a column includes those into its table, and downstream of a table continues from
     * its columns.
     */
    public ColumnGraph walk(Handle h, Collection<Long> start, Direction direction, int depth) {
        Map<Long, Integer> seen = new HashMap<>();
        Map<UUID, ColumnGraph.Edge> edges = new LinkedHashMap<>();
        Deque<long[]> queue = new ArrayDeque<>();
        for (long s : start) {
            seen.put(s, 0);
            queue.add(new long[] {s, 0});
        }
        while (!queue.isEmpty()) {
            long[] current = queue.poll();
            if (current[1] >= depth) {
                continue;
            }
            List<Direction> directions = direction == Direction.BOTH
                    ? List.of(Direction.UPSTREAM, Direction.DOWNSTREAM) : List.of(direction);
            for (Direction d : directions) {
                for (ColumnGraph.Edge e : edgesAt(h, current[0], d)) {
                    edges.putIfAbsent(e.id(), e);
                    long other = d == Direction.UPSTREAM ? e.from() : e.to();
                    if (!seen.containsKey(other)) {
                        NodeType type = typeOf(h, other);
                        int cost = type == NodeType.COLUMN || type == NodeType.IDLE_COLUMN ? 1 : 0;
                        seen.put(other, (int) current[1] + cost);
                        queue.add(new long[] {other, current[1] + cost});
                    }
                }
            }
        }
        Set<Long> ids = new java.util.LinkedHashSet<>(seen.keySet());
        edges.values().forEach(e -> {
            ids.add(e.from());
            ids.add(e.to());
        });
        return new ColumnGraph(nodes(h, withTables(h, ids)), new ArrayList<>(edges.values()));
    }

    /** Relations into (upstream) or out of (downstream) a node, counting a table and its columns as one. */
    private List<ColumnGraph.Edge> edgesAt(Handle h, long node, Direction direction) {
        String where = direction == Direction.UPSTREAM
                ? " WHERE r.target_node_id = :n OR r.target_node_id = (SELECT container_node_id FROM lineage_node"
                        + " WHERE node_id = :n)"
                : " WHERE r.src_node_id = :n OR r.src_node_id IN (SELECT node_id FROM lineage_node"
                        + " WHERE container_node_id = :n)";
        return h.createQuery(EDGE + where + " ORDER BY r.created_at, r.relation_id").bind("n", node)
                .map((rs, ctx) -> edge(rs)).list();
    }

    private static NodeType typeOf(Handle h, long node) {
        return NodeType.of(h.createQuery("SELECT node_type_id FROM lineage_node WHERE node_id = :n").bind("n", node)
                .mapTo(Integer.class).one());
    }

    /** Columns are drawn inside their tables, so the tables come along. */
    private static Set<Long> withTables(Handle h, Set<Long> ids) {
        Set<Long> all = new java.util.LinkedHashSet<>(ids);
        all.addAll(h.createQuery("SELECT container_node_id FROM lineage_node WHERE node_id = ANY(:ids) "
                        + "AND container_node_id IS NOT NULL")
                .bind("ids", ids.toArray(Long[]::new)).mapTo(Long.class).list());
        return all;
    }

    private static List<ColumnGraph.Node> nodes(Handle h, Set<Long> ids) {
        return h.createQuery(NODE + " WHERE n.node_id = ANY(:ids) ORDER BY n.node_id")
                .bind("ids", ids.toArray(Long[]::new)).map((rs, ctx) -> node(rs)).list();
    }

    private static ColumnGraph.Node node(ResultSet rs) throws SQLException {
        long container = rs.getLong(5);
        Long tableId = rs.wasNull() ? null : container;
        int order = rs.getInt(7);
        Integer nodeOrder = rs.wasNull() ? null : order;
        return new ColumnGraph.Node(rs.getLong(1), rs.getString(2), NodeType.of(rs.getInt(3)), rs.getString(4), tableId,
                rs.getString(6), nodeOrder, rs.getBoolean(8));
    }

    private static ColumnGraph.Edge edge(ResultSet rs) throws SQLException {
        long run = rs.getLong(6);
        Long instanceExecId = rs.wasNull() ? null : run;
        return new ColumnGraph.Edge(rs.getObject(1, UUID.class), rs.getLong(2), rs.getLong(3),
                rs.getObject(4, UUID.class), rs.getLong(5), instanceExecId, rs.getBoolean(7));
    }
}
