package io.batchyard.lineage.graph;

import io.batchyard.persistence.Columns;
import io.batchyard.lineage.access.AccessRepository;
import io.batchyard.lineage.access.Readable;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** LINEAGE_NODE and LINEAGE_RELATION: the column graph's rows. */
@ApplicationScoped
public class ColumnGraphRepository {

    /** A relation seen from the node a walk stands on, with the types of both ends so the walk knows what it reaches. */
    public record Hop(ColumnGraph.Edge edge, NodeType fromType, NodeType toType) {
    }

    private static final String NODE = """
            SELECT n.node_id, n.node_key, n.node_type_id, n.display_name, n.container_node_id, t.display_name,
                   n.node_order, COALESCE(t.node_type_id, n.node_type_id) = 4
              FROM lineage_node n LEFT JOIN lineage_node t ON t.node_id = n.container_node_id""";
    private static final String HOP = """
            SELECT r.relation_id, r.src_node_id, r.target_node_id, r.query_id, q.process_id, q.instance_exec_id,
                   r.indirect, s.node_type_id, t.node_type_id
              FROM lineage_relation r JOIN lineage_query q ON q.query_id = r.query_id
              JOIN lineage_node s ON s.node_id = r.src_node_id
              JOIN lineage_node t ON t.node_id = r.target_node_id""";

    public Uni<Optional<ColumnGraph.Node>> byKey(String key) {
        return Panache.getSession().chain(s -> s.createNativeQuery(NODE + " WHERE n.node_key = :key", Object[].class)
                .setParameter("key", key)
                .getResultList()
                .map(rows -> rows.stream().findFirst().map(ColumnGraphRepository::node)));
    }

    public Uni<List<ColumnGraph.Node>> columnsOf(long tableId) {
        return Panache.getSession().chain(s -> s.createNativeQuery(NODE
                        + " WHERE n.container_node_id = :t ORDER BY n.node_order NULLS LAST, n.display_name", Object[].class)
                .setParameter("t", tableId)
                .getResultList()
                .map(rows -> rows.stream().map(ColumnGraphRepository::node).toList()));
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
        return Panache.getSession().chain(s -> AccessRepository.bind(s.createNativeQuery(HOP + where + " AND "
                        + AccessRepository.readable("q.process_id") + " ORDER BY r.created_at, r.relation_id",
                        Object[].class), reader)
                .setParameter("n", node)
                .getResultList()
                .map(rows -> rows.stream().map(ColumnGraphRepository::hop).toList()));
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
        return Panache.getSession().chain(s -> AccessRepository.bind(s.createNativeQuery("""
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
                        .formatted(AccessRepository.readable("q.process_id")), Long.class), reader)
                .setParameter("ids", ids)
                .getResultList())
                .map(Set::copyOf);
    }

    /** The tables that hold any of these nodes. */
    public Uni<List<Long>> containersOf(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Panache.getSession().chain(s -> s.createNativeQuery("SELECT container_node_id FROM lineage_node"
                        + " WHERE node_id IN (:ids) AND container_node_id IS NOT NULL", Long.class)
                .setParameter("ids", ids)
                .getResultList());
    }

    public Uni<List<ColumnGraph.Node>> nodes(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Panache.getSession().chain(s -> s.createNativeQuery(NODE + " WHERE n.node_id IN (:ids) ORDER BY n.node_id",
                        Object[].class)
                .setParameter("ids", ids)
                .getResultList()
                .map(rows -> rows.stream().map(ColumnGraphRepository::node).toList()));
    }

    /** Inserts a node or updates the shared one; a column once used by any query stays a column (LEAST keeps 2 over 5). */
    public Uni<Long> upsertNode(String key, NodeType type, String display, Long container, Integer order, UUID query) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO lineage_node (node_key, node_type_id, display_name, container_node_id, node_order, query_id)
                        VALUES (:key, :type, :display, :container, :order, :query)
                        ON CONFLICT (node_key) DO UPDATE
                        SET node_type_id = LEAST(lineage_node.node_type_id, EXCLUDED.node_type_id),
                            node_order = COALESCE(EXCLUDED.node_order, lineage_node.node_order)
                        RETURNING node_id""", Long.class)
                .setParameter("key", key).setParameter("type", (short) type.id()).setParameter("display", display)
                .setParameter("container", container).setParameter("order", order).setParameter("query", query)
                .getSingleResult());
    }

    /**
     * {@code subtypes}: the clauses of an indirect relation, comma-separated (null for none). The same relation again
     * (two statements of one script) adds its clauses to the stored ones.
     */
    public Uni<Void> insertRelation(UUID query, long from, long to, boolean indirect, String subtypes) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO lineage_relation (relation_id, query_id, src_node_id, target_node_id, indirect,
                                                      indirect_subtypes)
                        VALUES (:id, :query, :from, :to, :indirect, string_to_array(CAST(:subtypes AS TEXT), ','))
                        ON CONFLICT (query_id, src_node_id, target_node_id) DO UPDATE
                           SET indirect_subtypes = (SELECT array_agg(DISTINCT x ORDER BY x)
                                                      FROM unnest(lineage_relation.indirect_subtypes
                                                                  || EXCLUDED.indirect_subtypes) x)
                         WHERE EXCLUDED.indirect_subtypes IS NOT NULL""")
                .setParameter("id", UUID.randomUUID()).setParameter("query", query).setParameter("from", from)
                .setParameter("to", to).setParameter("indirect", indirect).setParameter("subtypes", subtypes)
                .executeUpdate()
                .replaceWithVoid());
    }

    private static ColumnGraph.Node node(Object[] r) {
        return new ColumnGraph.Node(Columns.toLong(r[0]), (String) r[1], NodeType.of(((Number) r[2]).intValue()),
                (String) r[3], Columns.longOrNull(r[4]), (String) r[5], Columns.intOrNull(r[6]), Columns.toBoolean(r[7]));
    }

    private static Hop hop(Object[] r) {
        ColumnGraph.Edge edge = new ColumnGraph.Edge(Columns.uuid(r[0]), Columns.toLong(r[1]), Columns.toLong(r[2]),
                Columns.uuid(r[3]), Columns.toLong(r[4]), Columns.longOrNull(r[5]), Columns.toBoolean(r[6]));
        return new Hop(edge, NodeType.of(((Number) r[7]).intValue()), NodeType.of(((Number) r[8]).intValue()));
    }
}
