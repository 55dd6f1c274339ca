package io.batchyard.lineage.query;

import io.batchyard.persistence.Columns;
import io.batchyard.lineage.access.AccessRepository;
import io.batchyard.lineage.access.Readable;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.hibernate.reactive.mutiny.Mutiny;

/** Reads and writes LINEAGE_QUERY rows. */
@ApplicationScoped
public class QueryRepository {

    /** {@code warnings} comes back as JSON text: a native query cannot say which Java type a {@code TEXT[]} maps to. */
    private static final String COLUMNS = """
            q.query_id, q.query_type, q.query_text, q.default_database, q.process_id, q.instance_exec_id,
            q.parse_status, q.parse_error, array_to_json(q.warnings)::text, q.registered_via, q.registered_at,
            (SELECT count(*) FROM lineage_relation r WHERE r.query_id = q.query_id) AS relations""";

    private static final String WHERE = """
            (CAST(:process AS BIGINT) IS NULL OR q.process_id = :process)
            AND (CAST(:run AS BIGINT) IS NULL OR q.instance_exec_id = :run)
            AND (CAST(:status AS TEXT) IS NULL OR q.parse_status = :status)
            AND """ + AccessRepository.readable("q.process_id");

    public Uni<Void> insert(UUID id, NewQuery q, String database, StoredQuery.ParseStatus status, String error,
                            List<String> warnings, String via) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO lineage_query (query_id, query_type, query_text, default_database, process_id,
                            instance_exec_id, parse_status, parse_error, warnings, registered_via)
                        VALUES (:id, :type, :text, :db, :process, :run, :status, :error, :warnings, :via)""")
                .setParameter("id", id).setParameter("type", q.type().name()).setParameter("text", q.text())
                .setParameter("db", database).setParameter("process", q.processId())
                .setParameter("run", q.instanceExecId()).setParameter("status", status.name())
                .setParameter("error", error).setParameter("warnings", warnings.toArray(String[]::new))
                .setParameter("via", via)
                .executeUpdate()
                .replaceWithVoid());
    }

    /** One lineage statement of the script {@code id}; its run is the script's. */
    public Uni<Void> insertStatement(UUID id, Long run, int index, String text, String database, String error) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO lineage_statement (query_id, statement_index, instance_exec_id, statement_text,
                            default_database, parse_status, parse_error)
                        VALUES (:id, :index, :run, :text, :db, :status, :error)""")
                .setParameter("id", id).setParameter("index", index).setParameter("run", run)
                .setParameter("text", text).setParameter("db", database)
                .setParameter("status", (error == null ? StoredQuery.ParseStatus.PARSED
                        : StoredQuery.ParseStatus.FAILED).name())
                .setParameter("error", error)
                .executeUpdate()
                .replaceWithVoid());
    }

    /** The lineage statements of these scripts, each script's in script order. */
    public Uni<Map<UUID, List<StoredStatement>>> statements(List<UUID> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        SELECT query_id, statement_index, statement_text, default_database, parse_status, parse_error,
                               registered_at
                          FROM lineage_statement WHERE query_id IN (:ids)
                         ORDER BY query_id, statement_index""", Object[].class)
                .setParameter("ids", ids)
                .getResultList()
                .map(rows -> {
                    Map<UUID, List<StoredStatement>> out = new HashMap<>();
                    for (Object[] r : rows) {
                        out.computeIfAbsent(Columns.uuid(r[0]), k -> new ArrayList<>()).add(new StoredStatement(
                                Columns.toInt(r[1]), (String) r[2], (String) r[3],
                                StoredQuery.ParseStatus.valueOf((String) r[4]), (String) r[5], Columns.time(r[6])));
                    }
                    return out;
                }));
    }

    public Uni<Optional<StoredQuery>> find(UUID id) {
        return Panache.getSession().chain(s -> s.createNativeQuery(
                        "SELECT " + COLUMNS + " FROM lineage_query q WHERE q.query_id = :id", Object[].class)
                .setParameter("id", id)
                .getResultList()
                .map(rows -> rows.stream().findFirst().map(QueryRepository::row)));
    }

    /** The page of stored queries that match {@code f}, of the processes {@code reader} may read. */
    public Uni<List<StoredQuery>> list(QueryFilter f, Readable reader, int limit, int offset) {
        return Panache.getSession().chain(s -> bind(s.createNativeQuery("SELECT " + COLUMNS
                        + " FROM lineage_query q WHERE " + WHERE
                        + " ORDER BY q.registered_at, q.query_id LIMIT :limit OFFSET :offset", Object[].class),
                        f, reader)
                .setParameter("limit", limit).setParameter("offset", offset)
                .getResultList()
                .map(rows -> rows.stream().map(QueryRepository::row).toList()));
    }

    public Uni<Long> count(QueryFilter f, Readable reader) {
        return Panache.getSession().chain(s -> bind(s.createNativeQuery(
                        "SELECT count(*) FROM lineage_query q WHERE " + WHERE, Long.class), f, reader)
                .getSingleResult());
    }

    /** Queries of a run: registered with the parent run's id or with one of its steps' instance exec ids. */
    public Uni<List<StoredQuery>> ofRun(long instanceExecId) {
        return Panache.getSession().chain(s -> s.createNativeQuery("SELECT " + COLUMNS + """
                         FROM lineage_query q
                        WHERE q.instance_exec_id = :run
                           OR q.instance_exec_id IN (SELECT sub_instance_exec_id FROM step_run
                                                      WHERE parent_instance_exec_id = :run)
                        ORDER BY q.registered_at, q.query_id""", Object[].class)
                .setParameter("run", instanceExecId)
                .getResultList()
                .map(rows -> rows.stream().map(QueryRepository::row).toList()));
    }

    private static <R> Mutiny.SelectionQuery<R> bind(Mutiny.SelectionQuery<R> q, QueryFilter f, Readable reader) {
        return AccessRepository.bind(q, reader).setParameter("process", f.processId())
                .setParameter("run", f.instanceExecId())
                .setParameter("status", f.status() == null ? null : f.status().name());
    }

    private static StoredQuery row(Object[] r) {
        return new StoredQuery(Columns.uuid(r[0]), QueryType.valueOf((String) r[1]), (String) r[2], (String) r[3],
                Columns.toLong(r[4]), Columns.longOrNull(r[5]), StoredQuery.ParseStatus.valueOf((String) r[6]),
                (String) r[7], Columns.strings(r[8]), (String) r[9], Columns.time(r[10]), Columns.toLong(r[11]),
                List.of());
    }
}
