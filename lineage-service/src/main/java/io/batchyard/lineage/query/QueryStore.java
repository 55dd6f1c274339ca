package io.batchyard.lineage.query;

import jakarta.enterprise.context.ApplicationScoped;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/** Reads and writes LINEAGE_QUERY rows. */
@ApplicationScoped
public class QueryStore {

    private static final String COLUMNS = """
            q.query_id, q.query_type, q.query_text, q.default_database, q.process_id, q.instance_exec_id,
            q.parse_status, q.parse_error, q.warnings, q.registered_via, q.registered_at,
            (SELECT count(*) FROM lineage_relation r WHERE r.query_id = q.query_id) AS relations""";

    /** Filters of the list endpoint; null means any. */
    public record Filter(Long processId, Long instanceExecId, StoredQuery.ParseStatus status) {
    }

    public void insert(Handle tx, UUID id, NewQuery q, String database, StoredQuery.ParseStatus status, String error,
                       List<String> warnings, String via) {
        tx.createUpdate("""
                        INSERT INTO lineage_query (query_id, query_type, query_text, default_database, process_id,
                            instance_exec_id, parse_status, parse_error, warnings, registered_via)
                        VALUES (:id, :type, :text, :db, :process, :run, :status, :error, :warnings, :via)""")
                .bind("id", id).bind("type", q.type().name()).bind("text", q.text()).bind("db", database)
                .bind("process", q.processId()).bind("run", q.instanceExecId()).bind("status", status.name())
                .bind("error", error).bind("warnings", warnings.toArray(String[]::new)).bind("via", via)
                .execute();
    }

    public Optional<StoredQuery> find(Handle h, UUID id) {
        return h.createQuery("SELECT " + COLUMNS + " FROM lineage_query q WHERE q.query_id = :id")
                .bind("id", id).map((rs, ctx) -> row(rs)).findOne();
    }

    public List<StoredQuery> list(Handle h, Filter f, int limit, int offset) {
        Query q = h.createQuery("SELECT " + COLUMNS + " FROM lineage_query q WHERE " + WHERE
                + " ORDER BY q.registered_at, q.query_id LIMIT :limit OFFSET :offset");
        return bind(q, f).bind("limit", limit).bind("offset", offset).map((rs, ctx) -> row(rs)).list();
    }

    public long count(Handle h, Filter f) {
        return bind(h.createQuery("SELECT count(*) FROM lineage_query q WHERE " + WHERE), f).mapTo(Long.class).one();
    }

    /** Queries of a run: registered with the parent run's id or with one of its steps' instance exec ids. */
    public List<StoredQuery> ofRun(Handle h, long instanceExecId) {
        return h.createQuery("SELECT " + COLUMNS + """
                         FROM lineage_query q
                        WHERE q.instance_exec_id = :run
                           OR q.instance_exec_id IN (SELECT sub_instance_exec_id FROM step_run
                                                      WHERE parent_instance_exec_id = :run)
                        ORDER BY q.registered_at, q.query_id""")
                .bind("run", instanceExecId).map((rs, ctx) -> row(rs)).list();
    }

    private static final String WHERE = """
            (CAST(:process AS BIGINT) IS NULL OR q.process_id = :process)
            AND (CAST(:run AS BIGINT) IS NULL OR q.instance_exec_id = :run)
            AND (CAST(:status AS TEXT) IS NULL OR q.parse_status = :status)""";

    private static Query bind(Query q, Filter f) {
        return q.bind("process", f.processId()).bind("run", f.instanceExecId())
                .bind("status", f.status() == null ? null : f.status().name());
    }

    private static StoredQuery row(ResultSet rs) throws SQLException {
        long run = rs.getLong(6);
        Long instanceExecId = rs.wasNull() ? null : run;
        return new StoredQuery(rs.getObject(1, UUID.class), QueryType.valueOf(rs.getString(2)), rs.getString(3),
                rs.getString(4), rs.getLong(5), instanceExecId, StoredQuery.ParseStatus.valueOf(rs.getString(7)),
                rs.getString(8), Arrays.asList((String[]) rs.getArray(9).getArray()), rs.getString(10),
                rs.getObject(11, OffsetDateTime.class), rs.getLong(12));
    }
}
