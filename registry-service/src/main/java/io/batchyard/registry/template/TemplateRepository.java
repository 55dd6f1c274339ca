package io.batchyard.registry.template;

import io.batchyard.api.access.Caller;
import io.batchyard.registry.NativeSqlRepository;
import io.batchyard.registry.application.ApplicationRepository;
import io.batchyard.persistence.Columns;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** SQL over {@code process_template} and {@code property_template}; statements join the caller's session. */
@ApplicationScoped
public class TemplateRepository extends NativeSqlRepository {

    /** The columns {@link #map} reads; arrays as text (see {@link Rows#longs}). */
    private static final String COLUMNS = """
            process_template_id, name, description, application_id, process_type_id, parent_template_id, can_recover,
            batch_cut_pattern, array_to_string(next_template_ids, ',') AS next_template_ids, workflow_type_id, deleted,
            created_at, updated_at""";

    public Uni<Long> insert(TemplateFields f) {
        return scalar("""
                        INSERT INTO process_template (name, description, application_id, process_type_id,
                          parent_template_id, can_recover, batch_cut_pattern, next_template_ids, workflow_type_id)
                        VALUES (:name, :description, :applicationId, :processTypeId, CAST(:parentTemplateId AS bigint),
                          :canRecover, CAST(:batchCutPattern AS text), CAST(CAST(:next AS text) AS bigint[]),
                          :workflowTypeId)
                        RETURNING process_template_id""", Long.class,
                "name", f.name(), "description", f.description(), "applicationId", f.applicationId(),
                "processTypeId", f.processTypeId(), "parentTemplateId", f.parentTemplateId(),
                "canRecover", f.canRecover(), "batchCutPattern", f.batchCutPattern(),
                "next", Columns.arrayLiteral(f.nextTemplateIds()), "workflowTypeId", f.workflowTypeId());
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
                "name", f.name(), "description", f.description(), "applicationId", f.applicationId(),
                "processTypeId", f.processTypeId(), "canRecover", f.canRecover(),
                "batchCutPattern", f.batchCutPattern(), "next", Columns.arrayLiteral(f.nextTemplateIds()),
                "workflowTypeId", f.workflowTypeId(), "id", id)
                .replaceWithVoid();
    }

    public Uni<Optional<TemplateRow>> find(long id) {
        return row("SELECT " + COLUMNS + " FROM process_template WHERE process_template_id = :id", "id", id)
                .map(r -> r.map(TemplateRepository::map));
    }

    /** The templates among {@code ids} that exist. */
    public Uni<List<TemplateRow>> findAll(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return templates("SELECT " + COLUMNS + " FROM process_template WHERE process_template_id IN (:ids)",
                "ids", ids);
    }

    public Uni<Optional<TemplateRow>> lock(long id) {
        return row("SELECT " + COLUMNS + " FROM process_template WHERE process_template_id = :id FOR UPDATE", "id", id)
                .map(r -> r.map(TemplateRepository::map));
    }

    /** Parent template first, then its step templates by id. */
    public Uni<List<TemplateRow>> tree(long parentId) {
        return templates("SELECT " + COLUMNS + """
                         FROM process_template WHERE process_template_id = :id OR parent_template_id = :id
                        ORDER BY (parent_template_id IS NOT NULL), process_template_id""", "id", parentId);
    }

    /** A page of the live templates (parents only, if asked) that {@code reader} may read. */
    public Uni<List<TemplateRow>> list(boolean parentsOnly, Caller reader, int limit, int offset) {
        return templates("SELECT " + COLUMNS + " FROM process_template WHERE " + MATCHES
                        + " ORDER BY process_template_id LIMIT :limit OFFSET :offset",
                with(ApplicationRepository.readerParamPairs(reader), "parentsOnly", parentsOnly, "limit", limit,
                        "offset", offset));
    }

    public Uni<Long> count(boolean parentsOnly, Caller reader) {
        return scalar("SELECT count(*) FROM process_template WHERE " + MATCHES, Long.class,
                with(ApplicationRepository.readerParamPairs(reader), "parentsOnly", parentsOnly));
    }

    private static final String MATCHES = """
            NOT deleted AND (NOT CAST(:parentsOnly AS boolean) OR parent_template_id IS NULL) AND\s"""
            + ApplicationRepository.readableBy("process_template.application_id");

    public Uni<List<Long>> markDeleted(long id) {
        return scalars("""
                        UPDATE process_template SET deleted = true, updated_at = now()
                        WHERE (process_template_id = :id OR parent_template_id = :id) AND NOT deleted
                        RETURNING process_template_id""", Long.class, "id", id);
    }

    public Uni<Void> upsertProperty(PropertyTemplate p) {
        return update("""
                        INSERT INTO property_template (process_template_id, config_group, prop_key, prop_value, description)
                        VALUES (:templateId, :configGroup, :key, :value, :description)
                        ON CONFLICT (process_template_id, prop_key) DO UPDATE SET config_group = EXCLUDED.config_group,
                          prop_value = EXCLUDED.prop_value, description = EXCLUDED.description""",
                "templateId", p.templateId(), "configGroup", p.configGroup(), "key", p.key(), "value", p.value(),
                "description", p.description())
                .replaceWithVoid();
    }

    public Uni<Boolean> deleteProperty(long templateId, String key) {
        return update("DELETE FROM property_template WHERE process_template_id = :id AND prop_key = :key",
                "id", templateId, "key", key)
                .map(n -> n == 1);
    }

    public Uni<List<PropertyTemplate>> properties(long templateId) {
        return rows("""
                        SELECT process_template_id, config_group, prop_key, prop_value, description
                        FROM property_template WHERE process_template_id = :id ORDER BY config_group, prop_key""",
                "id", templateId)
                .map(list -> list.stream().map(r -> new PropertyTemplate(Columns.toLong(r[0]), Columns.string(r[1]),
                        Columns.string(r[2]), Columns.string(r[3]), Columns.string(r[4]))).toList());
    }

    private static Uni<List<TemplateRow>> templates(String sql, Object... params) {
        return rows(sql, params).map(list -> list.stream().map(TemplateRepository::map).toList());
    }

    private static TemplateRow map(Object[] r) {
        return new TemplateRow(Columns.toLong(r[0]), Columns.string(r[1]), Columns.string(r[2]), Columns.toLong(r[3]),
                Columns.toInt(r[4]), Columns.longOrNull(r[5]), Columns.toBoolean(r[6]), Columns.string(r[7]),
                Columns.longs(r[8]), Columns.toInt(r[9]), Columns.toBoolean(r[10]), Columns.time(r[11]),
                Columns.time(r[12]));
    }
}
