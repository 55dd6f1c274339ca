package io.batchyard.registry.process;

import io.batchyard.registry.NativeSqlRepository;
import io.batchyard.persistence.Columns;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** SQL over {@code property}; every statement joins the session of the calling service method. */
@ApplicationScoped
public class PropertyRepository extends NativeSqlRepository {

    private static final String COLUMNS = "p.process_id, p.config_group, p.prop_key, p.prop_value, p.description";

    /** Stores {@code p}; a secret comes with its ciphertext and key id, and {@code p.value()} is empty then. */
    public Uni<Void> upsert(PropertyRow p, byte[] ciphertext, String keyId) {
        return update("""
                        INSERT INTO property (process_id, config_group, prop_key, prop_value, description, prop_value_ct,
                                              secrets_key_id)
                        VALUES (:processId, :configGroup, :key, :value, :description, CAST(:ct AS bytea),
                                CAST(:keyId AS varchar))
                        ON CONFLICT (process_id, prop_key) DO UPDATE
                        SET config_group = EXCLUDED.config_group, prop_value = EXCLUDED.prop_value,
                            description = EXCLUDED.description, prop_value_ct = EXCLUDED.prop_value_ct,
                            secrets_key_id = EXCLUDED.secrets_key_id""",
                "processId", p.processId(), "configGroup", p.configGroup(), "key", p.key(), "value", p.value(),
                "description", p.description(), "ct", ciphertext, "keyId", keyId)
                .replaceWithVoid();
    }

    /** Secrets written before they were encrypted: rows of a secret group without a ciphertext, clear value included. */
    public Uni<List<PropertyRow>> clearSecrets() {
        return properties("SELECT " + COLUMNS + """
                         FROM property p
                        WHERE lower(p.config_group) IN ('credential', 'security') AND p.prop_value_ct IS NULL
                        ORDER BY p.process_id, p.prop_key""");
    }

    public Uni<Boolean> delete(long processId, String key) {
        return update("DELETE FROM property WHERE process_id = :id AND prop_key = :key", "id", processId, "key", key)
                .map(n -> n == 1);
    }

    public Uni<Optional<PropertyRow>> find(long processId, String key) {
        return row("SELECT " + COLUMNS + " FROM property p WHERE p.process_id = :id AND p.prop_key = :key",
                "id", processId, "key", key)
                .map(r -> r.map(PropertyRepository::map));
    }

    /** Properties of one process, optionally of one config group, ordered by group and key. */
    public Uni<List<PropertyRow>> list(long processId, String configGroup) {
        return properties("SELECT " + COLUMNS + """
                         FROM property p
                        WHERE p.process_id = :id
                          AND (CAST(:group AS text) IS NULL OR p.config_group = CAST(:group AS text))
                        ORDER BY p.config_group, p.prop_key""", "id", processId, "group", configGroup);
    }

    /** Properties of a parent and all its steps. */
    public Uni<List<PropertyRow>> forTree(long parentId) {
        return properties("SELECT " + COLUMNS + """
                         FROM property p JOIN process pr ON pr.process_id = p.process_id
                        WHERE pr.process_id = :id OR pr.parent_process_id = :id
                        ORDER BY p.process_id, p.config_group, p.prop_key""", "id", parentId);
    }

    private static Uni<List<PropertyRow>> properties(String sql, Object... params) {
        return rows(sql, params).map(list -> list.stream().map(PropertyRepository::map).toList());
    }

    private static PropertyRow map(Object[] r) {
        return new PropertyRow(Columns.toLong(r[0]), Columns.string(r[1]), Columns.string(r[2]), Columns.string(r[3]),
                Columns.string(r[4]));
    }
}
