package io.batchyard.registry.process;

import io.batchyard.api.access.Caller;
import io.batchyard.persistence.Columns;
import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.batchyard.registry.access.ReadFilter;
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
public class ProcessRepository extends SqlRepository {

    /**
     * The columns {@link #map} reads. The arrays come as text: Hibernate Reactive cannot hand a native query's
     * {@code bigint[]} column back.
     */
    private static final String COLUMNS = """
            process_id, name, description, application_id, process_type_id, parent_process_id, can_recover,
            array_to_string(enqueuing_process_ids, ',') AS enqueuing_process_ids, batch_cut_pattern,
            array_to_string(next_process_ids, ',') AS next_process_ids, deleted, workflow_type_id, process_template_id,
            process_code, version, created_at, updated_at, server_id""";

    public Uni<Long> insert(ProcessDraft d) {
        String idColumn = d.processId() == null ? "" : "process_id, ";
        String idValue = d.processId() == null ? "" : ":processId, ";
        String overriding = d.processId() == null ? "" : " OVERRIDING SYSTEM VALUE";
        Params params = draftParams(d).and("parentProcessId", d.parentProcessId())
                .and("processTemplateId", d.processTemplateId());
        if (d.processId() != null) {
            params.and("processId", d.processId());
        }
        return single("INSERT INTO process (" + idColumn + """
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
                draftParams(d).and("id", processId).and("version", expectedVersion))
                .map(n -> n == 1);
    }

    /** Moves a parent's steps, deleted ones included, to the parent's new application. */
    public Uni<Void> moveSteps(long parentId, long applicationId) {
        return update("""
                        UPDATE process SET application_id = :app, version = version + 1, updated_at = now()
                        WHERE parent_process_id = :id AND application_id <> :app""",
                Params.of("id", parentId).and("app", applicationId)).replaceWithVoid();
    }

    public Uni<Void> touch(long processId) {
        return update("UPDATE process SET version = version + 1, updated_at = now() WHERE process_id = :id",
                Params.of("id", processId)).replaceWithVoid();
    }

    /** Soft delete; returns the ids that were flagged. */
    public Uni<List<Long>> markDeleted(List<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return values("""
                        UPDATE process SET deleted = true, version = version + 1, updated_at = now()
                        WHERE process_id IN (:ids) AND NOT deleted RETURNING process_id""", Long.class,
                Params.of("ids", ids));
    }

    public Uni<Optional<ProcessRow>> find(long processId) {
        return first("SELECT " + COLUMNS + " FROM process WHERE process_id = :id", Params.of("id", processId),
                ProcessRepository::map);
    }

    /** The processes among {@code ids} that exist, in id order. */
    public Uni<List<ProcessRow>> findAll(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list("SELECT " + COLUMNS + " FROM process WHERE process_id IN (:ids) ORDER BY process_id",
                Params.of("ids", ids), ProcessRepository::map);
    }

    /** Locks the row: tree edits lock their parent first, so concurrent edits of one tree are serialised. */
    public Uni<Optional<ProcessRow>> lock(long processId) {
        return first("SELECT " + COLUMNS + " FROM process WHERE process_id = :id FOR UPDATE",
                Params.of("id", processId), ProcessRepository::map);
    }

    /**
     * Locks every process of an application, in id order (a tree's parent, whose lock tree edits take first, has a
     * lower id than its steps): nothing of the application changes until the caller's transaction ends.
     */
    public Uni<Void> lockApplication(long applicationId) {
        return values("SELECT process_id FROM process WHERE application_id = :app ORDER BY process_id FOR UPDATE",
                Long.class, Params.of("app", applicationId)).replaceWithVoid();
    }

    /** The parent followed by its steps (deleted ones included), parent first, then by id. */
    public Uni<List<ProcessRow>> tree(long parentId) {
        return list("SELECT " + COLUMNS + """
                         FROM process WHERE process_id = :id OR parent_process_id = :id
                        ORDER BY (parent_process_id IS NOT NULL), process_id""", Params.of("id", parentId),
                ProcessRepository::map);
    }

    /** Live steps, of any parent, that name {@code processId} as next process or as enqueuing process. */
    public Uni<List<ProcessRow>> referencing(long processId) {
        return list("SELECT " + COLUMNS + """
                         FROM process WHERE NOT deleted AND process_id <> :id
                          AND (CAST(:id AS bigint) = ANY(next_process_ids)
                               OR CAST(:id AS bigint) = ANY(enqueuing_process_ids))
                        ORDER BY process_id""", Params.of("id", processId), ProcessRepository::map);
    }

    /** Live processes naming the server, by id. */
    public Uni<List<Long>> liveNaming(long serverId) {
        return values("SELECT process_id FROM process WHERE server_id = :server AND NOT deleted ORDER BY process_id",
                Long.class, Params.of("server", serverId));
    }

    /** Parent processes whose output reaches {@code parentId}'s steps, directly or transitively. */
    public Uni<Set<Long>> upstreamParents(long parentId) {
        return values("""
                        WITH RECURSIVE upstream(pid) AS (
                          SELECT unnest(s.enqueuing_process_ids) FROM process s
                          WHERE s.parent_process_id = :id AND NOT s.deleted
                          UNION
                          SELECT unnest(s.enqueuing_process_ids) FROM process s JOIN upstream u
                            ON s.parent_process_id = u.pid WHERE NOT s.deleted)
                        SELECT pid FROM upstream""", Long.class, Params.of("id", parentId))
                .map(HashSet::new);
    }

    /** A page of the processes matching {@code f} that {@code reader} may read. */
    public Uni<List<ProcessRow>> list(ProcessFilter f, Caller reader, int limit, int offset) {
        Where where = matching(f, reader);
        return list("SELECT " + COLUMNS + " FROM process" + where.sql() + " ORDER BY process_id" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()), ProcessRepository::map);
    }

    public Uni<Long> count(ProcessFilter f, Caller reader) {
        Where where = matching(f, reader);
        return single("SELECT count(*) FROM process" + where.sql(), Long.class, where.params());
    }

    /**
     * The processes {@code f} asks for, of applications the reader may read (a step's application is its parent's).
     * The values are always bound, never concatenated.
     */
    private static Where matching(ProcessFilter f, Caller reader) {
        Where where = Where.all().eq("application_id", f.applicationId())
                .eq("parent_process_id", f.parentProcessId()).eq("process_type_id", f.processTypeId());
        if (f.parentsOnly() != null) {
            where.and(f.parentsOnly() ? "parent_process_id IS NULL" : "parent_process_id IS NOT NULL");
        }
        if (f.nameContains() != null) {
            String name = f.nameContains().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
            where.and("name ILIKE '%' || CAST(:name AS text) || '%'", Params.of("name", name));
        }
        if (!f.includeDeleted()) {
            where.and("NOT deleted");
        }
        return where.and(ReadFilter.condition("process.application_id"), ReadFilter.params(reader));
    }

    /** The parameters of the fields both insert and update write. */
    private static Params draftParams(ProcessDraft d) {
        return Params.of("name", d.name()).and("description", d.description())
                .and("applicationId", d.applicationId()).and("processTypeId", d.processTypeId())
                .and("canRecover", d.canRecover()).and("enqueuers", Columns.arrayLiteral(d.enqueuingProcessIds()))
                .and("batchCutPattern", d.batchCutPattern()).and("next", Columns.arrayLiteral(d.nextProcessIds()))
                .and("workflowTypeId", d.workflowTypeId()).and("serverId", d.serverId());
    }

    private static ProcessRow map(Row r) {
        return new ProcessRow(
                r.getLong("process_id"),
                r.getString("name"),
                r.getString("description"),
                r.getLong("application_id"),
                r.getInt("process_type_id"),
                r.getLongOrNull("parent_process_id"),
                r.getBoolean("can_recover"),
                Columns.longs(r.get("enqueuing_process_ids")),
                r.getString("batch_cut_pattern"),
                Columns.longs(r.get("next_process_ids")),
                r.getBoolean("deleted"),
                r.getInt("workflow_type_id"),
                r.getLongOrNull("process_template_id"),
                r.getUuid("process_code"),
                r.getInt("version"),
                r.getTime("created_at"),
                r.getTime("updated_at"),
                r.getLongOrNull("server_id"));
    }
}
