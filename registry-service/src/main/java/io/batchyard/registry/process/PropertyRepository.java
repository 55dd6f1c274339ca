package io.batchyard.registry.process;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** SQL over {@code property}; every statement joins the session of the calling service method. */
@ApplicationScoped
public class PropertyRepository extends SqlRepository {

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
                Params.of("processId", p.processId()).and("configGroup", p.configGroup()).and("key", p.key())
                        .and("value", p.value()).and("description", p.description()).and("ct", ciphertext)
                        .and("keyId", keyId))
                .replaceWithVoid();
    }

    /** Secrets written before they were encrypted: rows of a secret group without a ciphertext, clear value included. */
    public Uni<List<PropertyRow>> clearSecrets() {
        return list("SELECT " + COLUMNS + """
                         FROM property p
                        WHERE lower(p.config_group) IN ('credential', 'security') AND p.prop_value_ct IS NULL
                        ORDER BY p.process_id, p.prop_key""", Params.none(), PropertyRepository::map);
    }

    public Uni<Boolean> delete(long processId, String key) {
        return update("DELETE FROM property WHERE process_id = :id AND prop_key = :key",
                Params.of("id", processId).and("key", key))
                .map(n -> n == 1);
    }

    public Uni<Optional<PropertyRow>> find(long processId, String key) {
        return first("SELECT " + COLUMNS + " FROM property p WHERE p.process_id = :id AND p.prop_key = :key",
                Params.of("id", processId).and("key", key), PropertyRepository::map);
    }

    /** Properties of one process, optionally of one config group, ordered by group and key. */
    public Uni<List<PropertyRow>> list(long processId, String configGroup) {
        Where where = Where.all().eq("p.process_id", processId).eq("p.config_group", configGroup);
        return list("SELECT " + COLUMNS + " FROM property p" + where.sql() + " ORDER BY p.config_group, p.prop_key",
                where.params(), PropertyRepository::map);
    }

    /** Properties of a parent and all its steps. */
    public Uni<List<PropertyRow>> forTree(long parentId) {
        return list("SELECT " + COLUMNS + """
                         FROM property p JOIN process pr ON pr.process_id = p.process_id
                        WHERE pr.process_id = :id OR pr.parent_process_id = :id
                        ORDER BY p.process_id, p.config_group, p.prop_key""", Params.of("id", parentId),
                PropertyRepository::map);
    }

    private static PropertyRow map(Row r) {
        return new PropertyRow(r.getLong("process_id"), r.getString("config_group"), r.getString("prop_key"),
                r.getString("prop_value"), r.getString("description"));
    }
}
