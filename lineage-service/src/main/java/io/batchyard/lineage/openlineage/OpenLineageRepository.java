package io.batchyard.lineage.openlineage;

import io.batchyard.eventing.persistence.Columns;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.UUID;

/** The stored relations of a run's queries, with both ends named as OpenLineage needs them. */
@ApplicationScoped
public class OpenLineageRepository {

    public Uni<List<RunEventBuilder.Relation>> relations(Collection<UUID> queries) {
        if (queries.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        SELECT r.query_id, s.node_id, st.display_name, s.display_name,
                               s.node_type_id = 2 AND st.node_type_id = 1,
                               t.node_id, tt.display_name, t.display_name,
                               t.node_type_id = 2 AND tt.node_type_id = 1, s.node_type_id = 3,
                               t.node_type_id = 1
                          FROM lineage_relation r
                          JOIN lineage_node s ON s.node_id = r.src_node_id
                          LEFT JOIN lineage_node st ON st.node_id = s.container_node_id
                          JOIN lineage_node t ON t.node_id = r.target_node_id
                          LEFT JOIN lineage_node tt ON tt.node_id = t.container_node_id
                         WHERE r.query_id IN (:queries)""", Object[].class)
                .setParameter("queries", queries)
                .getResultList()
                .map(rows -> rows.stream().map(r -> new RunEventBuilder.Relation(Columns.uuid(r[0]), Columns.toLong(r[1]),
                        (String) r[2], (String) r[3], bool(r[4]), Columns.toLong(r[5]), (String) r[6], (String) r[7],
                        bool(r[8]), bool(r[9]), bool(r[10]))).toList()));
    }

    /** {@code a AND b} with {@code b} NULL (a node without a container) is NULL, which JDBC read as false. */
    private static boolean bool(Object value) {
        return value != null && Columns.toBoolean(value);
    }
}
