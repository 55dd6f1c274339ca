package io.batchyard.registry.template;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

@ApplicationScoped
public class TemplateDao {

    /** The stored fields of a template. */
    public record Fields(String name, String description, long applicationId, int processTypeId,
                         Long parentTemplateId, boolean canRecover, String batchCutPattern,
                         List<Long> nextTemplateIds, int workflowTypeId) {
    }

    public long insert(Handle tx, Fields f) {
        return tx.createQuery("""
                        INSERT INTO process_template (name, description, application_id, process_type_id,
                          parent_template_id, can_recover, batch_cut_pattern, next_template_ids, workflow_type_id)
                        VALUES (:name, :description, :applicationId, :processTypeId, :parentTemplateId, :canRecover,
                          :batchCutPattern, :next, :workflowTypeId) RETURNING process_template_id""")
                .bindMethods(f).bindArray("next", Long.class, f.nextTemplateIds()).mapTo(Long.class).one();
    }

    public void update(Handle tx, long id, Fields f) {
        tx.createUpdate("""
                        UPDATE process_template SET name = :name, description = :description,
                          application_id = :applicationId, process_type_id = :processTypeId, can_recover = :canRecover,
                          batch_cut_pattern = :batchCutPattern, next_template_ids = :next,
                          workflow_type_id = :workflowTypeId, updated_at = now()
                        WHERE process_template_id = :id""")
                .bindMethods(f).bindArray("next", Long.class, f.nextTemplateIds()).bind("id", id).execute();
    }

    public Optional<TemplateRow> find(Handle h, long id) {
        return h.createQuery("SELECT * FROM process_template WHERE process_template_id = :id").bind("id", id)
                .map((rs, ctx) -> TemplateRow.map(rs)).findOne();
    }

    public Optional<TemplateRow> lock(Handle tx, long id) {
        return tx.createQuery("SELECT * FROM process_template WHERE process_template_id = :id FOR UPDATE").bind("id", id)
                .map((rs, ctx) -> TemplateRow.map(rs)).findOne();
    }

    /** Parent template first, then its step templates by id. */
    public List<TemplateRow> tree(Handle h, long parentId) {
        return h.createQuery("""
                        SELECT * FROM process_template WHERE process_template_id = :id OR parent_template_id = :id
                        ORDER BY (parent_template_id IS NOT NULL), process_template_id""")
                .bind("id", parentId).map((rs, ctx) -> TemplateRow.map(rs)).list();
    }

    public List<TemplateRow> list(Handle h, boolean parentsOnly, int limit, int offset) {
        return h.createQuery("""
                        SELECT * FROM process_template WHERE NOT deleted AND (NOT :parentsOnly OR parent_template_id IS NULL)
                        ORDER BY process_template_id LIMIT :limit OFFSET :offset""")
                .bind("parentsOnly", parentsOnly).bind("limit", limit).bind("offset", offset)
                .map((rs, ctx) -> TemplateRow.map(rs)).list();
    }

    public long count(Handle h, boolean parentsOnly) {
        return h.createQuery("""
                        SELECT count(*) FROM process_template WHERE NOT deleted
                          AND (NOT :parentsOnly OR parent_template_id IS NULL)""")
                .bind("parentsOnly", parentsOnly).mapTo(Long.class).one();
    }

    public List<Long> markDeleted(Handle tx, long id) {
        return tx.createQuery("""
                        UPDATE process_template SET deleted = true, updated_at = now()
                        WHERE (process_template_id = :id OR parent_template_id = :id) AND NOT deleted
                        RETURNING process_template_id""")
                .bind("id", id).mapTo(Long.class).list();
    }

    /** A property template: copied into a new process's properties at instantiation. */
    public record PropertyTemplate(long templateId, String configGroup, String key, String value, String description) {
    }

    public void upsertProperty(Handle tx, PropertyTemplate p) {
        tx.createUpdate("""
                        INSERT INTO property_template (process_template_id, config_group, prop_key, prop_value, description)
                        VALUES (:templateId, :configGroup, :key, :value, :description)
                        ON CONFLICT (process_template_id, prop_key) DO UPDATE SET config_group = EXCLUDED.config_group,
                          prop_value = EXCLUDED.prop_value, description = EXCLUDED.description""")
                .bindMethods(p).execute();
    }

    public boolean deleteProperty(Handle tx, long templateId, String key) {
        return tx.createUpdate("DELETE FROM property_template WHERE process_template_id = :id AND prop_key = :key")
                .bind("id", templateId).bind("key", key).execute() == 1;
    }

    public List<PropertyTemplate> properties(Handle h, long templateId) {
        return h.createQuery("""
                        SELECT * FROM property_template WHERE process_template_id = :id ORDER BY config_group, prop_key""")
                .bind("id", templateId)
                .map((rs, ctx) -> new PropertyTemplate(rs.getLong("process_template_id"), rs.getString("config_group"),
                        rs.getString("prop_key"), rs.getString("prop_value"), rs.getString("description")))
                .list();
    }
}
