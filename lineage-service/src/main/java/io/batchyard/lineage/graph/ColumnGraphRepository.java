package io.batchyard.lineage.graph;

import io.batchyard.lineage.access.Readable;
import io.batchyard.lineage.access.Visibility;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** LINEAGE_NODE and LINEAGE_RELATION: the column graph's rows. */
@ApplicationScoped
public class ColumnGraphRepository extends SqlRepository {

    /**
     * A relation seen from the node a walk stands on, with the types of both ends so the walk knows what it reaches.
     */
    public record Hop(ColumnGraph.Edge edge, NodeType fromType, NodeType toType) {
    }

    private static final String NODE = """
            SELECT n.node_id, n.node_key, n.node_type_id, n.display_name, n.container_node_id,
                   t.display_name AS table_name, n.node_order, COALESCE(t.node_type_id, n.node_type_id) = 4 AS temp
              FROM lineage_node n LEFT JOIN lineage_node t ON t.node_id = n.container_node_id""";
    private static final String HOP = """
            SELECT r.relation_id, r.src_node_id, r.target_node_id, r.query_id, q.process_id, q.instance_exec_id,
                   r.indirect, s.node_type_id AS from_type, t.node_type_id AS to_type
              FROM lineage_relation r JOIN lineage_query q ON q.query_id = r.query_id
              JOIN lineage_node s ON s.node_id = r.src_node_id
              JOIN lineage_node t ON t.node_id = r.target_node_id""";

    public Uni<Optional<ColumnGraph.Node>> byKey(String key) {
        return first(NODE + " WHERE n.node_key = :key", Params.of("key", key), ColumnGraphRepository::node);
    }

    public Uni<List<ColumnGraph.Node>> columnsOf(long tableId) {
        return list(NODE + " WHERE n.container_node_id = :t ORDER BY n.node_order NULLS LAST, n.display_name",
                Params.of("t", tableId), ColumnGraphRepository::node);
    }

    /**
     * Relations into (upstream) or out of (downstream) a node, counting a table and its columns as one: those of the
     * queries of processes {@code reader} may read.
     */
    public Uni<List<Hop>> hops(long node, Direction direction, Readable reader) {
        String where = direction == Direction.UPSTREAM
                ? " WHERE (r.target_node_id = :n OR r.target_node_id = (SELECT container_node_id FROM lineage_node"
                        + " WHERE node_id = :n))"
                : " WHERE (r.src_node_id = :n OR r.src_node_id IN (SELECT node_id FROM lineage_node"
                        + " WHERE container_node_id = :n))";
        return list(HOP + where + " AND " + Visibility.readable("q.process_id")
                        + " ORDER BY r.created_at, r.relation_id",
                Visibility.params(reader).and("n", node), ColumnGraphRepository::hop);
    }

    /**
     * Those of {@code ids} that come only from queries {@code reader} may not read: nodes with relations, none of
     * them of a query of a readable process. A table counts the relations of its columns too. A node no relation
     * touches (a column known from a table's schema only) is not among them.
     */
    public Uni<Set<Long>> hiddenFrom(Readable reader, Collection<Long> ids) {
        if (reader.everything() || ids.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return values("""
                        WITH asked AS (
                          SELECT n.node_id, m.node_id AS member
                            FROM lineage_node n JOIN lineage_node m
                              ON m.node_id = n.node_id OR m.container_node_id = n.node_id
                           WHERE n.node_id IN (:ids)),
                        related AS (
                          SELECT a.node_id, %s AS readable
                            FROM asked a JOIN lineage_relation r ON a.member IN (r.src_node_id, r.target_node_id)
                            JOIN lineage_query q ON q.query_id = r.query_id)
                        SELECT node_id FROM related GROUP BY node_id HAVING NOT bool_or(readable)"""
                        .formatted(Visibility.readable("q.process_id")), Long.class,
                Visibility.params(reader).and("ids", ids))
                .map(Set::copyOf);
    }

    /** The tables that hold any of these nodes. */
    public Uni<List<Long>> containersOf(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return values("SELECT container_node_id FROM lineage_node"
                + " WHERE node_id IN (:ids) AND container_node_id IS NOT NULL", Long.class, Params.of("ids", ids));
    }

    public Uni<List<ColumnGraph.Node>> nodes(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list(NODE + " WHERE n.node_id IN (:ids) ORDER BY n.node_id", Params.of("ids", ids),
                ColumnGraphRepository::node);
    }

    /**
     * Inserts a node or updates the shared one; a column once used by any query stays a column (LEAST keeps 2 over
     * 5).
     */
    public Uni<Long> upsertNode(String key, NodeType type, String display, Long container, Integer order, UUID query) {
        return single("""
                        INSERT INTO lineage_node (node_key, node_type_id, display_name, container_node_id, node_order, query_id)
                        VALUES (:key, :type, :display, :container, :order, :query)
                        ON CONFLICT (node_key) DO UPDATE
                        SET node_type_id = LEAST(lineage_node.node_type_id, EXCLUDED.node_type_id),
                            node_order = COALESCE(EXCLUDED.node_order, lineage_node.node_order)
                        RETURNING node_id""", Long.class,
                Params.of("key", key).and("type", (short) type.id()).and("display", display)
                        .and("container", container).and("order", order).and("query", query));
    }

    /**
     * {@code subtypes}: the clauses of an indirect relation, comma-separated (null for none). The same relation again
     * (two statements of one script) adds its clauses to the stored ones.
     */
    public Uni<Void> insertRelation(UUID query, long from, long to, boolean indirect, String subtypes) {
        return update("""
                        INSERT INTO lineage_relation (relation_id, query_id, src_node_id, target_node_id, indirect,
                                                      indirect_subtypes)
                        VALUES (:id, :query, :from, :to, :indirect, string_to_array(CAST(:subtypes AS TEXT), ','))
                        ON CONFLICT (query_id, src_node_id, target_node_id) DO UPDATE
                           SET indirect_subtypes = (SELECT array_agg(DISTINCT x ORDER BY x)
                                                      FROM unnest(lineage_relation.indirect_subtypes
                                                                  || EXCLUDED.indirect_subtypes) x)
                         WHERE EXCLUDED.indirect_subtypes IS NOT NULL""",
                Params.of("id", UUID.randomUUID()).and("query", query).and("from", from).and("to", to)
                        .and("indirect", indirect).and("subtypes", subtypes))
                .replaceWithVoid();
    }

    private static ColumnGraph.Node node(Row r) {
        return new ColumnGraph.Node(r.getLong("node_id"), r.getString("node_key"),
                NodeType.of(r.getInt("node_type_id")), r.getString("display_name"), r.getLongOrNull("container_node_id"), r.getString("table_name"),
                r.getIntOrNull("node_order"), r.getBoolean("temp"));
    }

    private static Hop hop(Row r) {
        ColumnGraph.Edge edge = new ColumnGraph.Edge(r.getUuid("relation_id"), r.getLong("src_node_id"),
                r.getLong("target_node_id"), r.getUuid("query_id"), r.getLong("process_id"),
                r.getLongOrNull("instance_exec_id"), r.getBoolean("indirect"));
        return new Hop(edge, NodeType.of(r.getInt("from_type")), NodeType.of(r.getInt("to_type")));
    }
}
