package io.batchyard.registry.process;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

@ApplicationScoped
public class PropertyDao {

    public void upsert(Handle tx, PropertyRow p) {
        tx.createUpdate("""
                        INSERT INTO property (process_id, config_group, prop_key, prop_value, description)
                        VALUES (:processId, :configGroup, :key, :value, :description)
                        ON CONFLICT (process_id, prop_key) DO UPDATE
                        SET config_group = EXCLUDED.config_group, prop_value = EXCLUDED.prop_value,
                            description = EXCLUDED.description""")
                .bindMethods(p)
                .execute();
    }

    public boolean delete(Handle tx, long processId, String key) {
        return tx.createUpdate("DELETE FROM property WHERE process_id = :id AND prop_key = :key")
                .bind("id", processId).bind("key", key).execute() == 1;
    }

    public Optional<PropertyRow> find(Handle h, long processId, String key) {
        return h.createQuery("SELECT * FROM property WHERE process_id = :id AND prop_key = :key")
                .bind("id", processId).bind("key", key)
                .map((rs, ctx) -> map(rs))
                .findOne();
    }

    /** Properties of one process, optionally of one config group, ordered by group and key. */
    public List<PropertyRow> list(Handle h, long processId, String configGroup) {
        return h.createQuery("""
                        SELECT * FROM property WHERE process_id = :id AND (:group IS NULL OR config_group = :group)
                        ORDER BY config_group, prop_key""")
                .bind("id", processId).bindByType("group", configGroup, String.class)
                .map((rs, ctx) -> map(rs))
                .list();
    }

    /** Properties of a parent and all its steps. */
    public List<PropertyRow> forTree(Handle h, long parentId) {
        return h.createQuery("""
                        SELECT p.* FROM property p JOIN process pr ON pr.process_id = p.process_id
                        WHERE pr.process_id = :id OR pr.parent_process_id = :id
                        ORDER BY p.process_id, p.config_group, p.prop_key""")
                .bind("id", parentId)
                .map((rs, ctx) -> map(rs))
                .list();
    }

    private static PropertyRow map(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new PropertyRow(rs.getLong("process_id"), rs.getString("config_group"), rs.getString("prop_key"),
                rs.getString("prop_value"), rs.getString("description"));
    }
}
