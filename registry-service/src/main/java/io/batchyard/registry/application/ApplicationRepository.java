package io.batchyard.registry.application;

import io.batchyard.registry.NativeSqlRepository;
import io.batchyard.eventing.persistence.Columns;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/** SQL over {@code application}; every statement joins the session of the calling service method. */
@ApplicationScoped
public class ApplicationRepository extends NativeSqlRepository {

    private static final String COLUMNS = "application_id, name, description, owner, created_at, updated_at";

    public Uni<ApplicationRow> insert(String name, String description, String owner) {
        return rows("INSERT INTO application (name, description, owner) VALUES (:name, :description, :owner) RETURNING "
                        + COLUMNS,
                "name", name, "description", description, "owner", owner)
                .map(list -> map(list.get(0)));
    }

    public Uni<Optional<ApplicationRow>> update(long id, String name, String description, String owner) {
        return row("""
                        UPDATE application SET name = :name, description = :description, owner = :owner,
                          updated_at = now() WHERE application_id = :id RETURNING\s""" + COLUMNS,
                "id", id, "name", name, "description", description, "owner", owner)
                .map(r -> r.map(ApplicationRepository::map));
    }

    public Uni<Boolean> delete(long id) {
        return update("DELETE FROM application WHERE application_id = :id", "id", id).map(n -> n == 1);
    }

    public Uni<Optional<ApplicationRow>> find(long id) {
        return row("SELECT " + COLUMNS + " FROM application WHERE application_id = :id", "id", id)
                .map(r -> r.map(ApplicationRepository::map));
    }

    public Uni<Boolean> nameTaken(String name, Long exceptId) {
        return scalar("""
                        SELECT count(*) FROM application
                        WHERE name = :name AND application_id IS DISTINCT FROM CAST(:except AS bigint)""",
                Long.class, "name", name, "except", exceptId)
                .map(n -> n > 0);
    }

    public Uni<Long> processCount(long id) {
        return scalar("SELECT count(*) FROM process WHERE application_id = :id", Long.class, "id", id);
    }

    public Uni<List<ApplicationRow>> list(String nameContains, int limit, int offset) {
        return rows("SELECT " + COLUMNS + """
                         FROM application
                        WHERE (CAST(:name AS text) IS NULL OR name ILIKE '%' || CAST(:name AS text) || '%')
                        ORDER BY application_id LIMIT :limit OFFSET :offset""",
                "name", nameContains, "limit", limit, "offset", offset)
                .map(list -> list.stream().map(ApplicationRepository::map).toList());
    }

    public Uni<Long> count(String nameContains) {
        return scalar("""
                        SELECT count(*) FROM application
                        WHERE (CAST(:name AS text) IS NULL OR name ILIKE '%' || CAST(:name AS text) || '%')""",
                Long.class, "name", nameContains);
    }

    private static ApplicationRow map(Object[] r) {
        return new ApplicationRow(Columns.toLong(r[0]), Columns.string(r[1]), Columns.string(r[2]), Columns.string(r[3]),
                Columns.time(r[4]), Columns.time(r[5]));
    }
}
