package io.batchyard.registry.application;

import io.batchyard.registry.Rows;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

@ApplicationScoped
public class ApplicationDao {

    public ApplicationRow insert(Handle tx, String name, String description, String owner) {
        return tx.createQuery("""
                        INSERT INTO application (name, description, owner) VALUES (:name, :description, :owner)
                        RETURNING *""")
                .bind("name", name).bind("description", description).bind("owner", owner)
                .map((rs, ctx) -> map(rs)).one();
    }

    public Optional<ApplicationRow> update(Handle tx, long id, String name, String description, String owner) {
        return tx.createQuery("""
                        UPDATE application SET name = :name, description = :description, owner = :owner,
                          updated_at = now() WHERE application_id = :id RETURNING *""")
                .bind("id", id).bind("name", name).bind("description", description).bind("owner", owner)
                .map((rs, ctx) -> map(rs)).findOne();
    }

    public boolean delete(Handle tx, long id) {
        return tx.createUpdate("DELETE FROM application WHERE application_id = :id").bind("id", id).execute() == 1;
    }

    public Optional<ApplicationRow> find(Handle h, long id) {
        return h.createQuery("SELECT * FROM application WHERE application_id = :id").bind("id", id)
                .map((rs, ctx) -> map(rs)).findOne();
    }

    public boolean nameTaken(Handle h, String name, Long exceptId) {
        return h.createQuery("SELECT count(*) FROM application WHERE name = :name AND application_id IS DISTINCT FROM :except")
                .bind("name", name).bindByType("except", exceptId, Long.class).mapTo(Long.class).one() > 0;
    }

    public long processCount(Handle h, long id) {
        return h.createQuery("SELECT count(*) FROM process WHERE application_id = :id").bind("id", id)
                .mapTo(Long.class).one();
    }

    public List<ApplicationRow> list(Handle h, String nameContains, int limit, int offset) {
        return h.createQuery("""
                        SELECT * FROM application WHERE (:name IS NULL OR name ILIKE '%' || :name || '%')
                        ORDER BY application_id LIMIT :limit OFFSET :offset""")
                .bindByType("name", nameContains, String.class).bind("limit", limit).bind("offset", offset)
                .map((rs, ctx) -> map(rs)).list();
    }

    public long count(Handle h, String nameContains) {
        return h.createQuery("SELECT count(*) FROM application WHERE (:name IS NULL OR name ILIKE '%' || :name || '%')")
                .bindByType("name", nameContains, String.class).mapTo(Long.class).one();
    }

    private static ApplicationRow map(ResultSet rs) throws SQLException {
        return new ApplicationRow(rs.getLong("application_id"), rs.getString("name"), rs.getString("description"),
                rs.getString("owner"), Rows.timestamp(rs, "created_at"), Rows.timestamp(rs, "updated_at"));
    }
}
