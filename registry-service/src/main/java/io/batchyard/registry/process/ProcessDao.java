package io.batchyard.registry.process;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.HashSet;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * SQL over {@code process}. Every method runs on the caller's handle, so callers decide the transaction. Generated
 * and chosen process ids live in disjoint ranges ({@link io.batchyard.api.ChosenIds}): an insert never touches the
 * sequence.
 */
@ApplicationScoped
public class ProcessDao {

    /** Filters of {@code GET /processes}; null fields do not filter. */
    public record Filter(Long applicationId, Long parentProcessId, Integer processTypeId, Boolean parentsOnly,
                         String nameContains, boolean includeDeleted) {
    }

    public long insert(Handle tx, ProcessDraft d) {
        String idColumn = d.processId() == null ? "" : "process_id, ";
        String idValue = d.processId() == null ? "" : ":processId, ";
        String overriding = d.processId() == null ? "" : " OVERRIDING SYSTEM VALUE";
        return tx.createQuery("INSERT INTO process (" + idColumn + """
                        name, description, application_id, process_type_id, parent_process_id, can_recover,
                        enqueuing_process_ids, batch_cut_pattern, next_process_ids, workflow_type_id, process_template_id)
                        """ + overriding + " VALUES (" + idValue + """
                        :name, :description, :applicationId, :processTypeId, :parentProcessId, :canRecover,
                        :enqueuers, :batchCutPattern, :next, :workflowTypeId, :processTemplateId)
                        RETURNING process_id""")
                .bind("processId", d.processId())
                .bindMethods(d)
                .bindArray("enqueuers", Long.class, d.enqueuingProcessIds())
                .bindArray("next", Long.class, d.nextProcessIds())
                .mapTo(Long.class)
                .one();
    }

    /** Applies the draft if the row is still at {@code expectedVersion}; returns false when it is not. */
    public boolean update(Handle tx, long processId, int expectedVersion, ProcessDraft d) {
        return tx.createUpdate("""
                        UPDATE process SET name = :name, description = :description, application_id = :applicationId,
                          process_type_id = :processTypeId, can_recover = :canRecover,
                          enqueuing_process_ids = :enqueuers, batch_cut_pattern = :batchCutPattern,
                          next_process_ids = :next, workflow_type_id = :workflowTypeId,
                          version = version + 1, updated_at = now()
                        WHERE process_id = :id AND version = :version AND NOT deleted""")
                .bindMethods(d)
                .bindArray("enqueuers", Long.class, d.enqueuingProcessIds())
                .bindArray("next", Long.class, d.nextProcessIds())
                .bind("id", processId)
                .bind("version", expectedVersion)
                .execute() == 1;
    }

    public void touch(Handle tx, long processId) {
        tx.createUpdate("UPDATE process SET version = version + 1, updated_at = now() WHERE process_id = :id")
                .bind("id", processId).execute();
    }

    /** Soft delete; returns the ids that were flagged. */
    public List<Long> markDeleted(Handle tx, List<Long> ids) {
        return tx.createQuery("""
                        UPDATE process SET deleted = true, version = version + 1, updated_at = now()
                        WHERE process_id = ANY(:ids) AND NOT deleted RETURNING process_id""")
                .bindArray("ids", Long.class, ids)
                .mapTo(Long.class)
                .list();
    }

    public Optional<ProcessRow> find(Handle h, long processId) {
        return h.createQuery("SELECT * FROM process WHERE process_id = :id")
                .bind("id", processId)
                .map((rs, ctx) -> ProcessRow.map(rs))
                .findOne();
    }

    /** Locks the row: tree edits lock their parent first, so concurrent edits of one tree are serialised. */
    public Optional<ProcessRow> lock(Handle tx, long processId) {
        return tx.createQuery("SELECT * FROM process WHERE process_id = :id FOR UPDATE")
                .bind("id", processId)
                .map((rs, ctx) -> ProcessRow.map(rs))
                .findOne();
    }

    /** The parent followed by its steps (deleted ones included), parent first, then by id. */
    public List<ProcessRow> tree(Handle h, long parentId) {
        return h.createQuery("""
                        SELECT * FROM process WHERE process_id = :id OR parent_process_id = :id
                        ORDER BY (parent_process_id IS NOT NULL), process_id""")
                .bind("id", parentId)
                .map((rs, ctx) -> ProcessRow.map(rs))
                .list();
    }

    /** Live steps, of any parent, that name {@code processId} as next process or as enqueuing process. */
    public List<ProcessRow> referencing(Handle h, long processId) {
        return h.createQuery("""
                        SELECT * FROM process WHERE NOT deleted AND process_id <> :id
                          AND (:id = ANY(next_process_ids) OR :id = ANY(enqueuing_process_ids))
                        ORDER BY process_id""")
                .bind("id", processId)
                .map((rs, ctx) -> ProcessRow.map(rs))
                .list();
    }

    /** Parent processes whose output reaches {@code parentId}'s steps, directly or transitively. */
    public Set<Long> upstreamParents(Handle h, long parentId) {
        return new HashSet<>(h.createQuery("""
                        WITH RECURSIVE upstream(pid) AS (
                          SELECT unnest(s.enqueuing_process_ids) FROM process s
                          WHERE s.parent_process_id = :id AND NOT s.deleted
                          UNION
                          SELECT unnest(s.enqueuing_process_ids) FROM process s JOIN upstream u
                            ON s.parent_process_id = u.pid WHERE NOT s.deleted)
                        SELECT pid FROM upstream""")
                .bind("id", parentId)
                .mapTo(Long.class)
                .list());
    }

    public List<ProcessRow> list(Handle h, Filter f, int limit, int offset) {
        Query q = h.createQuery("SELECT * FROM process WHERE " + where(f) + " ORDER BY process_id LIMIT :limit OFFSET :offset")
                .bind("limit", limit).bind("offset", offset);
        return bindFilter(q, f).map((rs, ctx) -> ProcessRow.map(rs)).list();
    }

    public long count(Handle h, Filter f) {
        return bindFilter(h.createQuery("SELECT count(*) FROM process WHERE " + where(f)), f).mapTo(Long.class).one();
    }

    private static String where(Filter f) {
        // Fixed clause; the values are always bound, never concatenated.
        return """
                (:applicationId IS NULL OR application_id = :applicationId)
                AND (:parentProcessId IS NULL OR parent_process_id = :parentProcessId)
                AND (:processTypeId IS NULL OR process_type_id = :processTypeId)
                AND (:parentsOnly IS NULL OR (parent_process_id IS NULL) = :parentsOnly)
                AND (:name IS NULL OR name ILIKE '%' || :name || '%')
                AND (:includeDeleted OR NOT deleted)""";
    }

    private static Query bindFilter(Query q, Filter f) {
        String name = f.nameContains() == null ? null
                : f.nameContains().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
        return q.bindByType("applicationId", f.applicationId(), Long.class)
                .bindByType("parentProcessId", f.parentProcessId(), Long.class)
                .bindByType("processTypeId", f.processTypeId(), Integer.class)
                .bindByType("parentsOnly", f.parentsOnly(), Boolean.class)
                .bindByType("name", name, String.class)
                .bind("includeDeleted", f.includeDeleted());
    }
}
