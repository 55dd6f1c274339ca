package io.batchyard.registry.process;

import io.batchyard.registry.NativeSqlRepository;
import io.batchyard.persistence.Columns;
import io.batchyard.api.access.Caller;
import io.batchyard.registry.application.ApplicationRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * SQL over {@code process}. Every statement joins the session of the calling service method, so the service decides
 * the transaction. Generated and chosen process ids live in disjoint ranges ({@link io.batchyard.api.ChosenIds}): an
 * insert never touches the sequence.
 */
@ApplicationScoped
public class ProcessRepository extends NativeSqlRepository {

    /** The columns {@link #map} reads; arrays as text (see {@link Rows#longs}). */
    private static final String COLUMNS = """
            process_id, name, description, application_id, process_type_id, parent_process_id, can_recover,
            array_to_string(enqueuing_process_ids, ',') AS enqueuing_process_ids, batch_cut_pattern,
            array_to_string(next_process_ids, ',') AS next_process_ids, deleted, workflow_type_id, process_template_id,
            process_code, version, created_at, updated_at, server_id""";

    public Uni<Long> insert(ProcessDraft d) {
        String idColumn = d.processId() == null ? "" : "process_id, ";
        String idValue = d.processId() == null ? "" : ":processId, ";
        String overriding = d.processId() == null ? "" : " OVERRIDING SYSTEM VALUE";
        Object[] params = {
                "name", d.name(), "description", d.description(), "applicationId", d.applicationId(),
                "processTypeId", d.processTypeId(), "parentProcessId", d.parentProcessId(),
                "canRecover", d.canRecover(), "enqueuers", Columns.arrayLiteral(d.enqueuingProcessIds()),
                "batchCutPattern", d.batchCutPattern(), "next", Columns.arrayLiteral(d.nextProcessIds()),
                "workflowTypeId", d.workflowTypeId(), "processTemplateId", d.processTemplateId(),
                "serverId", d.serverId()};
        if (d.processId() != null) {
            params = with(params, "processId", d.processId());
        }
        return scalar("INSERT INTO process (" + idColumn + """
                        name, description, application_id, process_type_id, parent_process_id, can_recover,
                        enqueuing_process_ids, batch_cut_pattern, next_process_ids, workflow_type_id, process_template_id,
                        server_id)
                        """ + overriding + " VALUES (" + idValue + """
                        :name, :description, :applicationId, :processTypeId, CAST(:parentProcessId AS bigint),
                        :canRecover, CAST(CAST(:enqueuers AS text) AS bigint[]), CAST(:batchCutPattern AS text),
                        CAST(CAST(:next AS text) AS bigint[]), :workflowTypeId, CAST(:processTemplateId AS bigint),
                        CAST(:serverId AS bigint))
                        RETURNING process_id""", Long.class, params);
    }

    /** Applies the draft if the row is still at {@code expectedVersion}; returns false when it is not. */
    public Uni<Boolean> update(long processId, int expectedVersion, ProcessDraft d) {
        return update("""
                        UPDATE process SET name = :name, description = :description, application_id = :applicationId,
                          process_type_id = :processTypeId, can_recover = :canRecover,
                          enqueuing_process_ids = CAST(CAST(:enqueuers AS text) AS bigint[]),
                          batch_cut_pattern = CAST(:batchCutPattern AS text),
                          next_process_ids = CAST(CAST(:next AS text) AS bigint[]), workflow_type_id = :workflowTypeId,
                          server_id = CAST(:serverId AS bigint), version = version + 1, updated_at = now()
                        WHERE process_id = :id AND version = :version AND NOT deleted""",
                "name", d.name(), "description", d.description(), "applicationId", d.applicationId(),
                "processTypeId", d.processTypeId(), "canRecover", d.canRecover(),
                "enqueuers", Columns.arrayLiteral(d.enqueuingProcessIds()), "batchCutPattern", d.batchCutPattern(),
                "next", Columns.arrayLiteral(d.nextProcessIds()), "workflowTypeId", d.workflowTypeId(),
                "serverId", d.serverId(), "id", processId, "version", expectedVersion)
                .map(n -> n == 1);
    }

    /** Moves a parent's steps, deleted ones included, to the parent's new application. */
    public Uni<Void> moveSteps(long parentId, long applicationId) {
        return update("""
                        UPDATE process SET application_id = :app, version = version + 1, updated_at = now()
                        WHERE parent_process_id = :id AND application_id <> :app""",
                "id", parentId, "app", applicationId).replaceWithVoid();
    }

    public Uni<Void> touch(long processId) {
        return update("UPDATE process SET version = version + 1, updated_at = now() WHERE process_id = :id",
                "id", processId).replaceWithVoid();
    }

    /** Soft delete; returns the ids that were flagged. */
    public Uni<List<Long>> markDeleted(List<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return scalars("""
                        UPDATE process SET deleted = true, version = version + 1, updated_at = now()
                        WHERE process_id IN (:ids) AND NOT deleted RETURNING process_id""", Long.class, "ids", ids);
    }

    public Uni<Optional<ProcessRow>> find(long processId) {
        return row("SELECT " + COLUMNS + " FROM process WHERE process_id = :id", "id", processId)
                .map(r -> r.map(ProcessRepository::map));
    }

    /** The processes among {@code ids} that exist, in id order. */
    public Uni<List<ProcessRow>> findAll(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return processes("SELECT " + COLUMNS + " FROM process WHERE process_id IN (:ids) ORDER BY process_id", "ids", ids);
    }

    /** Locks the row: tree edits lock their parent first, so concurrent edits of one tree are serialised. */
    public Uni<Optional<ProcessRow>> lock(long processId) {
        return row("SELECT " + COLUMNS + " FROM process WHERE process_id = :id FOR UPDATE", "id", processId)
                .map(r -> r.map(ProcessRepository::map));
    }

    /** The parent followed by its steps (deleted ones included), parent first, then by id. */
    public Uni<List<ProcessRow>> tree(long parentId) {
        return processes("SELECT " + COLUMNS + """
                         FROM process WHERE process_id = :id OR parent_process_id = :id
                        ORDER BY (parent_process_id IS NOT NULL), process_id""", "id", parentId);
    }

    /** Live steps, of any parent, that name {@code processId} as next process or as enqueuing process. */
    public Uni<List<ProcessRow>> referencing(long processId) {
        return processes("SELECT " + COLUMNS + """
                         FROM process WHERE NOT deleted AND process_id <> :id
                          AND (CAST(:id AS bigint) = ANY(next_process_ids)
                               OR CAST(:id AS bigint) = ANY(enqueuing_process_ids))
                        ORDER BY process_id""", "id", processId);
    }

    /** Live processes naming the server, by id. */
    public Uni<List<Long>> liveNaming(long serverId) {
        return scalars("SELECT process_id FROM process WHERE server_id = :server AND NOT deleted ORDER BY process_id",
                Long.class, "server", serverId);
    }

    /** Parent processes whose output reaches {@code parentId}'s steps, directly or transitively. */
    public Uni<Set<Long>> upstreamParents(long parentId) {
        return scalars("""
                        WITH RECURSIVE upstream(pid) AS (
                          SELECT unnest(s.enqueuing_process_ids) FROM process s
                          WHERE s.parent_process_id = :id AND NOT s.deleted
                          UNION
                          SELECT unnest(s.enqueuing_process_ids) FROM process s JOIN upstream u
                            ON s.parent_process_id = u.pid WHERE NOT s.deleted)
                        SELECT pid FROM upstream""", Long.class, "id", parentId)
                .map(HashSet::new);
    }

    /** A page of the processes matching {@code f} that {@code reader} may read. */
    public Uni<List<ProcessRow>> list(ProcessFilter f, Caller reader, int limit, int offset) {
        return processes("SELECT " + COLUMNS + " FROM process WHERE " + WHERE + READABLE
                        + " ORDER BY process_id LIMIT :limit OFFSET :offset",
                with(with(filterParams(f), ApplicationRepository.readerParamPairs(reader)), "limit", limit,
                        "offset", offset));
    }

    public Uni<Long> count(ProcessFilter f, Caller reader) {
        return scalar("SELECT count(*) FROM process WHERE " + WHERE + READABLE, Long.class,
                with(filterParams(f), ApplicationRepository.readerParamPairs(reader)));
    }

    /** Fixed clause; the values are always bound, never concatenated. */
    private static final String WHERE = """
            (CAST(:applicationId AS bigint) IS NULL OR application_id = CAST(:applicationId AS bigint))
            AND (CAST(:parentProcessId AS bigint) IS NULL OR parent_process_id = CAST(:parentProcessId AS bigint))
            AND (CAST(:processTypeId AS int) IS NULL OR process_type_id = CAST(:processTypeId AS int))
            AND (CAST(:parentsOnly AS boolean) IS NULL OR (parent_process_id IS NULL) = CAST(:parentsOnly AS boolean))
            AND (CAST(:name AS text) IS NULL OR name ILIKE '%' || CAST(:name AS text) || '%')
            AND (CAST(:includeDeleted AS boolean) OR NOT deleted)""";

    /** Only processes of applications the reader may read; a step's application is its parent's. */
    private static final String READABLE = " AND " + ApplicationRepository.readableBy("process.application_id");

    private static Object[] filterParams(ProcessFilter f) {
        String name = f.nameContains() == null ? null
                : f.nameContains().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
        return new Object[] {"applicationId", f.applicationId(), "parentProcessId", f.parentProcessId(),
                "processTypeId", f.processTypeId(), "parentsOnly", f.parentsOnly(), "name", name,
                "includeDeleted", f.includeDeleted()};
    }

    private static Uni<List<ProcessRow>> processes(String sql, Object... params) {
        return rows(sql, params).map(list -> list.stream().map(ProcessRepository::map).toList());
    }

    private static ProcessRow map(Object[] r) {
        return new ProcessRow(
                Columns.toLong(r[0]),
                Columns.string(r[1]),
                Columns.string(r[2]),
                Columns.toLong(r[3]),
                Columns.toInt(r[4]),
                Columns.longOrNull(r[5]),
                Columns.toBoolean(r[6]),
                Columns.longs(r[7]),
                Columns.string(r[8]),
                Columns.longs(r[9]),
                Columns.toBoolean(r[10]),
                Columns.toInt(r[11]),
                Columns.longOrNull(r[12]),
                Columns.uuid(r[13]),
                Columns.toInt(r[14]),
                Columns.time(r[15]),
                Columns.time(r[16]),
                Columns.longOrNull(r[17]));
    }
}
