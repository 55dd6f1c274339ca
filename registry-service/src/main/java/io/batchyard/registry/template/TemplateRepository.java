package io.batchyard.registry.template;

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
import java.util.List;
import java.util.Optional;

/** SQL over {@code process_template} and {@code property_template}; statements join the caller's session. */
@ApplicationScoped
public class TemplateRepository extends SqlRepository {

    /**
     * The columns {@link #map} reads. The array comes as text: Hibernate Reactive cannot hand a native query's
     * {@code bigint[]} column back.
     */
    private static final String COLUMNS = """
            process_template_id, name, description, application_id, process_type_id, parent_template_id, can_recover,
            batch_cut_pattern, array_to_string(next_template_ids, ',') AS next_template_ids, workflow_type_id, deleted,
            created_at, updated_at""";

    public Uni<Long> insert(TemplateFields f) {
        return single("""
                        INSERT INTO process_template (name, description, application_id, process_type_id,
                          parent_template_id, can_recover, batch_cut_pattern, next_template_ids, workflow_type_id)
                        VALUES (:name, :description, :applicationId, :processTypeId, CAST(:parentTemplateId AS bigint),
                          :canRecover, CAST(:batchCutPattern AS text), CAST(CAST(:next AS text) AS bigint[]),
                          :workflowTypeId)
                        RETURNING process_template_id""", Long.class,
                fieldParams(f).and("parentTemplateId", f.parentTemplateId()));
    }

    /** Changes the editable fields; the tree position (parent template) never changes. */
    public Uni<Void> update(long id, TemplateFields f) {
        return update("""
                        UPDATE process_template SET name = :name, description = :description,
                          application_id = :applicationId, process_type_id = :processTypeId, can_recover = :canRecover,
                          batch_cut_pattern = CAST(:batchCutPattern AS text),
                          next_template_ids = CAST(CAST(:next AS text) AS bigint[]),
                          workflow_type_id = :workflowTypeId, updated_at = now()
                        WHERE process_template_id = :id""",
                fieldParams(f).and("id", id))
                .replaceWithVoid();
    }

    public Uni<Optional<TemplateRow>> find(long id) {
        return first("SELECT " + COLUMNS + " FROM process_template WHERE process_template_id = :id",
                Params.of("id", id), TemplateRepository::map);
    }

    /** The templates among {@code ids} that exist. */
    public Uni<List<TemplateRow>> findAll(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list("SELECT " + COLUMNS + " FROM process_template WHERE process_template_id IN (:ids)",
                Params.of("ids", ids), TemplateRepository::map);
    }

    public Uni<Optional<TemplateRow>> lock(long id) {
        return first("SELECT " + COLUMNS + " FROM process_template WHERE process_template_id = :id FOR UPDATE",
                Params.of("id", id), TemplateRepository::map);
    }

    /** Parent template first, then its step templates by id. */
    public Uni<List<TemplateRow>> tree(long parentId) {
        return list("SELECT " + COLUMNS + """
                         FROM process_template WHERE process_template_id = :id OR parent_template_id = :id
                        ORDER BY (parent_template_id IS NOT NULL), process_template_id""", Params.of("id", parentId),
                TemplateRepository::map);
    }

    /** A page of the live templates (parents only, if asked) that {@code reader} may read. */
    public Uni<List<TemplateRow>> list(boolean parentsOnly, Caller reader, int limit, int offset) {
        Where where = matching(parentsOnly, reader);
        return list("SELECT " + COLUMNS + " FROM process_template" + where.sql() + " ORDER BY process_template_id"
                        + Paging.CLAUSE, Params.none().and(where.params()).and(new Paging(limit, offset).params()),
                TemplateRepository::map);
    }

    public Uni<Long> count(boolean parentsOnly, Caller reader) {
        Where where = matching(parentsOnly, reader);
        return single("SELECT count(*) FROM process_template" + where.sql(), Long.class, where.params());
    }

    private static Where matching(boolean parentsOnly, Caller reader) {
        Where where = Where.all().and("NOT deleted");
        if (parentsOnly) {
            where.and("parent_template_id IS NULL");
        }
        return where.and(ReadFilter.condition("process_template.application_id"), ReadFilter.params(reader));
    }

    public Uni<List<Long>> markDeleted(long id) {
        return values("""
                        UPDATE process_template SET deleted = true, updated_at = now()
                        WHERE (process_template_id = :id OR parent_template_id = :id) AND NOT deleted
                        RETURNING process_template_id""", Long.class, Params.of("id", id));
    }

    public Uni<Void> upsertProperty(PropertyTemplate p) {
        return update("""
                        INSERT INTO property_template (process_template_id, config_group, prop_key, prop_value, description)
                        VALUES (:templateId, :configGroup, :key, :value, :description)
                        ON CONFLICT (process_template_id, prop_key) DO UPDATE SET config_group = EXCLUDED.config_group,
                          prop_value = EXCLUDED.prop_value, description = EXCLUDED.description""",
                Params.of("templateId", p.templateId()).and("configGroup", p.configGroup()).and("key", p.key())
                        .and("value", p.value()).and("description", p.description()))
                .replaceWithVoid();
    }

    public Uni<Boolean> deleteProperty(long templateId, String key) {
        return update("DELETE FROM property_template WHERE process_template_id = :id AND prop_key = :key",
                Params.of("id", templateId).and("key", key))
                .map(n -> n == 1);
    }

    public Uni<List<PropertyTemplate>> properties(long templateId) {
        return list("""
                        SELECT process_template_id, config_group, prop_key, prop_value, description
                        FROM property_template WHERE process_template_id = :id ORDER BY config_group, prop_key""",
                Params.of("id", templateId), TemplateRepository::property);
    }

    /** The parameters of the fields both insert and update write. */
    private static Params fieldParams(TemplateFields f) {
        return Params.of("name", f.name()).and("description", f.description())
                .and("applicationId", f.applicationId()).and("processTypeId", f.processTypeId())
                .and("canRecover", f.canRecover()).and("batchCutPattern", f.batchCutPattern())
                .and("next", Columns.arrayLiteral(f.nextTemplateIds())).and("workflowTypeId", f.workflowTypeId());
    }

    private static PropertyTemplate property(Row r) {
        return new PropertyTemplate(r.getLong("process_template_id"), r.getString("config_group"),
                r.getString("prop_key"), r.getString("prop_value"), r.getString("description"));
    }

    private static TemplateRow map(Row r) {
        return new TemplateRow(r.getLong("process_template_id"), r.getString("name"), r.getString("description"),
                r.getLong("application_id"), r.getInt("process_type_id"), r.getLongOrNull("parent_template_id"),
                r.getBoolean("can_recover"), r.getString("batch_cut_pattern"),
                Columns.longs(r.get("next_template_ids")), r.getInt("workflow_type_id"), r.getBoolean("deleted"),
                r.getTime("created_at"), r.getTime("updated_at"));
    }
}
