package io.batchyard.lineage.query;

import io.batchyard.lineage.access.Readable;
import io.batchyard.lineage.access.Visibility;
import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Reads and writes LINEAGE_QUERY rows. */
@ApplicationScoped
public class QueryRepository extends SqlRepository {

    /** {@code warnings} comes back as JSON text: a native query cannot say which Java type a {@code TEXT[]} maps to. */
    private static final String COLUMNS = """
            q.query_id, q.query_type, q.query_text, q.default_database, q.process_id, q.instance_exec_id,
            q.parse_status, q.parse_error, array_to_json(q.warnings)::text AS warnings, q.registered_via,
            q.registered_at, (SELECT count(*) FROM lineage_relation r WHERE r.query_id = q.query_id) AS relations""";

    /** One statement's row; its script's id travels beside it, for grouping. */
    private record ScriptStatement(UUID queryId, StoredStatement statement) {
    }

    public Uni<Void> insert(UUID id, NewQuery q, String database, StoredQuery.ParseStatus status, String error,
                            List<String> warnings, String via) {
        return update("""
                        INSERT INTO lineage_query (query_id, query_type, query_text, default_database, process_id,
                            instance_exec_id, parse_status, parse_error, warnings, registered_via)
                        VALUES (:id, :type, :text, :db, :process, :run, :status, :error, :warnings, :via)""",
                Params.of("id", id).and("type", q.type().name()).and("text", q.text()).and("db", database)
                        .and("process", q.processId()).and("run", q.instanceExecId()).and("status", status.name())
                        .and("error", error).and("warnings", warnings.toArray(String[]::new)).and("via", via))
                .replaceWithVoid();
    }

    /** One lineage statement of the script {@code id}; its run is the script's. */
    public Uni<Void> insertStatement(UUID id, Long run, int index, String text, String database, String error) {
        return update("""
                        INSERT INTO lineage_statement (query_id, statement_index, instance_exec_id, statement_text,
                            default_database, parse_status, parse_error)
                        VALUES (:id, :index, :run, :text, :db, :status, :error)""",
                Params.of("id", id).and("index", index).and("run", run).and("text", text).and("db", database)
                        .and("status", (error == null ? StoredQuery.ParseStatus.PARSED
                                : StoredQuery.ParseStatus.FAILED).name())
                        .and("error", error))
                .replaceWithVoid();
    }

    /** The lineage statements of these scripts, each script's in script order. */
    public Uni<Map<UUID, List<StoredStatement>>> statements(List<UUID> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return list("""
                        SELECT query_id, statement_index, statement_text, default_database, parse_status, parse_error,
                               registered_at
                          FROM lineage_statement WHERE query_id IN (:ids)
                         ORDER BY query_id, statement_index""", Params.of("ids", ids), QueryRepository::statement)
                .map(rows -> {
                    Map<UUID, List<StoredStatement>> out = new HashMap<>();
                    for (ScriptStatement row : rows) {
                        out.computeIfAbsent(row.queryId(), k -> new ArrayList<>()).add(row.statement());
                    }
                    return out;
                });
    }

    public Uni<Optional<StoredQuery>> find(UUID id) {
        return first("SELECT " + COLUMNS + " FROM lineage_query q WHERE q.query_id = :id", Params.of("id", id),
                QueryRepository::query);
    }

    /** The page of stored queries that match {@code f}, of the processes {@code reader} may read. */
    public Uni<List<StoredQuery>> list(QueryFilter f, Readable reader, int limit, int offset) {
        Where where = where(f, reader);
        Paging paging = new Paging(limit, offset);
        return list("SELECT " + COLUMNS + " FROM lineage_query q" + where.sql()
                        + " ORDER BY q.registered_at, q.query_id" + Paging.CLAUSE,
                Params.none().and(where.params()).and(paging.params()), QueryRepository::query);
    }

    public Uni<Long> count(QueryFilter f, Readable reader) {
        Where where = where(f, reader);
        return single("SELECT count(*) FROM lineage_query q" + where.sql(), Long.class, where.params());
    }

    /** Queries of a run: registered with the parent run's id or with one of its steps' instance exec ids. */
    public Uni<List<StoredQuery>> ofRun(long instanceExecId) {
        return list("SELECT " + COLUMNS + """
                         FROM lineage_query q
                        WHERE q.instance_exec_id = :run
                           OR q.instance_exec_id IN (SELECT sub_instance_exec_id FROM step_run
                                                      WHERE parent_instance_exec_id = :run)
                        ORDER BY q.registered_at, q.query_id""", Params.of("run", instanceExecId),
                QueryRepository::query);
    }

    private static Where where(QueryFilter f, Readable reader) {
        return Where.all().eq("q.process_id", f.processId()).eq("q.instance_exec_id", f.instanceExecId())
                .eq("q.parse_status", f.status() == null ? null : f.status().name())
                .and(Visibility.readable("q.process_id"), Visibility.params(reader));
    }

    private static StoredQuery query(Row r) {
        return new StoredQuery(r.getUuid("query_id"), r.getEnum("query_type", QueryType.class),
                r.getString("query_text"), r.getString("default_database"), r.getLong("process_id"),
                r.getLongOrNull("instance_exec_id"), r.getEnum("parse_status", StoredQuery.ParseStatus.class),
                r.getString("parse_error"), r.getStrings("warnings"), r.getString("registered_via"),
                r.getTime("registered_at"), r.getLong("relations"), List.of());
    }

    private static ScriptStatement statement(Row r) {
        return new ScriptStatement(r.getUuid("query_id"), new StoredStatement(r.getInt("statement_index"),
                r.getString("statement_text"), r.getString("default_database"),
                r.getEnum("parse_status", StoredQuery.ParseStatus.class), r.getString("parse_error"),
                r.getTime("registered_at")));
    }
}
