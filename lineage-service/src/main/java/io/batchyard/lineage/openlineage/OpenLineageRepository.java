package io.batchyard.lineage.openlineage;

import io.batchyard.lineage.column.IndirectClause;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * What OpenLineage needs of a run: its statements, the stored relations of its queries with both ends named,
 * and its OpenLineage run id ({@code openlineage_run}).
 */
@ApplicationScoped
public class OpenLineageRepository extends SqlRepository {

    /** A statement of one of the run's queries, as it ran. */
    public record StatementRow(UUID queryId, long processId, String text, String defaultDatabase,
                               OffsetDateTime registeredAt) {
    }

    public Uni<List<RunEventBuilder.Relation>> relations(Collection<UUID> queries) {
        if (queries.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list("""
                        SELECT r.query_id, s.node_id AS from_id, st.display_name AS from_table,
                               s.display_name AS from_name,
                               s.node_type_id = 2 AND st.node_type_id = 1 AS from_base_column,
                               t.node_id AS to_id, tt.display_name AS to_table, t.display_name AS to_name,
                               t.node_type_id = 2 AND tt.node_type_id = 1 AS to_base_column,
                               s.node_type_id = 3 AS from_function, t.node_type_id = 1 AS to_base_table,
                               array_to_string(r.indirect_subtypes, ',') AS subtypes
                          FROM lineage_relation r
                          JOIN lineage_node s ON s.node_id = r.src_node_id
                          LEFT JOIN lineage_node st ON st.node_id = s.container_node_id
                          JOIN lineage_node t ON t.node_id = r.target_node_id
                          LEFT JOIN lineage_node tt ON tt.node_id = t.container_node_id
                         WHERE r.query_id IN (:queries)""", Params.of("queries", queries),
                OpenLineageRepository::relation);
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
        return list("""
                        SELECT q.query_id, q.process_id, COALESCE(st.statement_text, q.query_text) AS text,
                               COALESCE(st.default_database, q.default_database) AS default_database,
                               q.registered_at
                          FROM lineage_query q
                          LEFT JOIN lineage_statement st ON st.query_id = q.query_id
                         WHERE q.instance_exec_id = :run
                            OR (:withSteps AND q.instance_exec_id IN (SELECT sub_instance_exec_id FROM step_run
                                                                       WHERE parent_instance_exec_id = :run))
                         ORDER BY q.registered_at, q.query_id, st.statement_index""",
                Params.of("run", run).and("withSteps", withSteps), OpenLineageRepository::statement);
    }

    /** The run's OpenLineage id, made now (time-ordered) if the run has none yet; the first writer's id stays. */
    public Uni<UUID> runId(long run) {
        return update("""
                        INSERT INTO openlineage_run (instance_exec_id, run_id) VALUES (:run, :id)
                        ON CONFLICT (instance_exec_id) DO NOTHING""", Params.of("run", run).and("id", UuidV7.now()))
                .chain(() -> first("SELECT run_id FROM openlineage_run WHERE instance_exec_id = :run",
                        Params.of("run", run), r -> r.getUuid("run_id")))
                .map(Optional::orElseThrow);
    }

    private static RunEventBuilder.Relation relation(Row r) {
        return new RunEventBuilder.Relation(r.getUuid("query_id"), r.getLong("from_id"), r.getString("from_table"),
                r.getString("from_name"), bool(r, "from_base_column"), r.getLong("to_id"), r.getString("to_table"),
                r.getString("to_name"), bool(r, "to_base_column"), bool(r, "from_function"),
                bool(r, "to_base_table"), subtypes(r.getString("subtypes")));
    }

    private static StatementRow statement(Row r) {
        return new StatementRow(r.getUuid("query_id"), r.getLong("process_id"), r.getString("text"),
                r.getString("default_database"), r.getTime("registered_at"));
    }

    /** {@code a AND b} with {@code b} NULL (a node without a container) is NULL, which JDBC read as false. */
    private static boolean bool(Row r, String column) {
        return Boolean.TRUE.equals(r.getBooleanOrNull(column));
    }
}
