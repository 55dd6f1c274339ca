package io.batchyard.lineage.openlineage;

import io.batchyard.persistence.Columns;
import io.batchyard.lineage.column.IndirectClause;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * What OpenLineage needs of a run: its statements, the stored relations of its queries with both ends named, its
 * OpenLineage run id ({@code openlineage_run}), and the outbox of events to push ({@code openlineage_outbox}).
 */
@ApplicationScoped
public class OpenLineageRepository {

    /** A statement of one of the run's queries, as it ran. */
    public record StatementRow(UUID queryId, long processId, String text, String defaultDatabase,
                               OffsetDateTime registeredAt) {
    }

    public Uni<List<RunEventBuilder.Relation>> relations(Collection<UUID> queries) {
        if (queries.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        SELECT r.query_id, s.node_id, st.display_name, s.display_name,
                               s.node_type_id = 2 AND st.node_type_id = 1,
                               t.node_id, tt.display_name, t.display_name,
                               t.node_type_id = 2 AND tt.node_type_id = 1, s.node_type_id = 3,
                               t.node_type_id = 1, array_to_string(r.indirect_subtypes, ',')
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
                        bool(r[8]), bool(r[9]), bool(r[10]), subtypes((String) r[11]))).toList()));
    }

    /** Stored subtypes of an indirect relation; none for a direct one or one stored before they were recorded. */
    private static Set<IndirectClause> subtypes(String stored) {
        Set<IndirectClause> subtypes = EnumSet.noneOf(IndirectClause.class);
        if (stored != null && !stored.isEmpty()) {
            Arrays.stream(stored.split(",")).map(IndirectClause::valueOf).forEach(subtypes::add);
        }
        return subtypes;
    }

    /**
     * The run's statements in the order they were registered and written; with {@code withSteps} also those of the
     * step runs inside it. A query stored without statement rows (Pig, or nothing parsed) counts with its text.
     */
    public Uni<List<StatementRow>> statements(long run, boolean withSteps) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        SELECT q.query_id, q.process_id, COALESCE(st.statement_text, q.query_text),
                               COALESCE(st.default_database, q.default_database), q.registered_at
                          FROM lineage_query q
                          LEFT JOIN lineage_statement st ON st.query_id = q.query_id
                         WHERE q.instance_exec_id = :run
                            OR (:withSteps AND q.instance_exec_id IN (SELECT sub_instance_exec_id FROM step_run
                                                                       WHERE parent_instance_exec_id = :run))
                         ORDER BY q.registered_at, q.query_id, st.statement_index""", Object[].class)
                .setParameter("run", run).setParameter("withSteps", withSteps)
                .getResultList()
                .map(rows -> rows.stream().map(r -> new StatementRow(Columns.uuid(r[0]), Columns.toLong(r[1]),
                        (String) r[2], (String) r[3], Columns.time(r[4]))).toList()));
    }

    /** The run's OpenLineage id, made now (time-ordered) if the run has none yet; the first writer's id stays. */
    public Uni<UUID> runId(long run) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO openlineage_run (instance_exec_id, run_id) VALUES (:run, :id)
                        ON CONFLICT (instance_exec_id) DO NOTHING""")
                .setParameter("run", run).setParameter("id", UuidV7.now())
                .executeUpdate()
                .chain(() -> s.createNativeQuery("SELECT run_id FROM openlineage_run WHERE instance_exec_id = :run",
                                Object.class)
                        .setParameter("run", run)
                        .getSingleResult()
                        .map(Columns::uuid)));
    }

    /** Queues one event for one transport, in the caller's transaction. */
    public Uni<Void> enqueue(String transport, UUID runId, String eventType, String payload) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO openlineage_outbox (transport, run_id, event_type, payload)
                        VALUES (:transport, :run, :type, :payload)""")
                .setParameter("transport", transport).setParameter("run", runId).setParameter("type", eventType)
                .setParameter("payload", payload)
                .executeUpdate()
                .replaceWithVoid());
    }

    /** {@code a AND b} with {@code b} NULL (a node without a container) is NULL, which JDBC read as false. */
    private static boolean bool(Object value) {
        return value != null && Columns.toBoolean(value);
    }
}
