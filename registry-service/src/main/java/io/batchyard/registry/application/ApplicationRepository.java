package io.batchyard.registry.application;

import io.batchyard.api.access.Caller;
import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
import io.batchyard.registry.access.ReadFilter;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** SQL over {@code application}; every statement joins the session of the calling service method. */
@ApplicationScoped
public class ApplicationRepository extends SqlRepository {

    private static final String COLUMNS = "application_id, name, description, owner, created_at, updated_at,"
            + " owner_user, owner_group, owner_permission, group_permission, others_permission";
    /** The same columns prefixed with the alias {@code a}, for joins. */
    private static final String QUALIFIED_COLUMNS = COLUMNS.replaceAll("(\\w+)", "a.$1");

    public Uni<ApplicationRow> insert(String name, String description, String owner, String ownerUser,
                                      String ownerGroup) {
        return first("""
                        INSERT INTO application (name, description, owner, owner_user, owner_group)
                        VALUES (:name, :description, :owner, :ownerUser, CAST(:ownerGroup AS text)) RETURNING\s"""
                        + COLUMNS,
                Params.of("name", name).and("description", description).and("owner", owner)
                        .and("ownerUser", ownerUser).and("ownerGroup", ownerGroup), ApplicationRepository::map)
                .map(Optional::orElseThrow);
    }

    public Uni<Optional<ApplicationRow>> setPermissions(long id, ApplicationRow.Permissions p) {
        return first("""
                        UPDATE application SET owner_user = CAST(:ownerUser AS text),
                          owner_group = CAST(:ownerGroup AS text), owner_permission = :owner,
                          group_permission = :group, others_permission = :others, updated_at = now()
                        WHERE application_id = :id RETURNING\s""" + COLUMNS,
                Params.of("id", id).and("ownerUser", p.ownerUser()).and("ownerGroup", p.ownerGroup())
                        .and("owner", p.owner()).and("group", p.group()).and("others", p.others()),
                ApplicationRepository::map);
    }

    public Uni<Void> markAnnounced(long id) {
        return update("UPDATE application SET announced_at = now() WHERE application_id = :id", Params.of("id", id))
                .replaceWithVoid();
    }

    /** Applications whose current state was never put on the registry topic (seeded rows, rows from before). */
    public Uni<List<ApplicationRow>> unannounced() {
        return list("SELECT " + COLUMNS + " FROM application WHERE announced_at IS NULL ORDER BY application_id"
                + " FOR UPDATE SKIP LOCKED", Params.none(), ApplicationRepository::map);
    }

    public Uni<Boolean> isMasterData(long id) {
        return single("SELECT count(*) FROM application WHERE application_id = :id AND master_data", Long.class,
                Params.of("id", id)).map(n -> n > 0);
    }

    /** The application of a process, if the process exists. */
    public Uni<Optional<ApplicationRow>> ofProcess(long processId) {
        return first("SELECT " + QUALIFIED_COLUMNS + """
                         FROM application a JOIN process p ON p.application_id = a.application_id
                        WHERE p.process_id = :id""", Params.of("id", processId), ApplicationRepository::map);
    }

    public Uni<Optional<ApplicationRow>> update(long id, String name, String description, String owner) {
        return first("""
                        UPDATE application SET name = :name, description = :description, owner = :owner,
                          updated_at = now() WHERE application_id = :id RETURNING\s""" + COLUMNS,
                Params.of("id", id).and("name", name).and("description", description).and("owner", owner),
                ApplicationRepository::map);
    }

    public Uni<Boolean> delete(long id) {
        return update("DELETE FROM application WHERE application_id = :id", Params.of("id", id)).map(n -> n == 1);
    }

    public Uni<Optional<ApplicationRow>> find(long id) {
        return first("SELECT " + COLUMNS + " FROM application WHERE application_id = :id", Params.of("id", id),
                ApplicationRepository::map);
    }

    public Uni<Boolean> nameTaken(String name, Long exceptId) {
        return single("""
                        SELECT count(*) FROM application
                        WHERE name = :name AND application_id IS DISTINCT FROM CAST(:except AS bigint)""",
                Long.class, Params.of("name", name).and("except", exceptId))
                .map(n -> n > 0);
    }

    /** What still belongs to the application: processes (deleted ones included), templates and Hive tables. */
    public Uni<String> dependents(long id) {
        return first("""
                        SELECT (SELECT count(*) FROM process WHERE application_id = :id) AS processes,
                               (SELECT count(*) FROM process_template WHERE application_id = :id) AS templates,
                               (SELECT count(*) FROM hive_table WHERE application_id = :id) AS hive_tables""",
                Params.of("id", id), r -> {
                    List<String> parts = new ArrayList<>();
                    addCount(parts, r.getLong("processes"), "process(es)");
                    addCount(parts, r.getLong("templates"), "template(s)");
                    addCount(parts, r.getLong("hive_tables"), "Hive table(s)");
                    return String.join(", ", parts);
                }).map(Optional::orElseThrow);
    }

    /** The applications among {@code ids} that exist. */
    public Uni<List<ApplicationRow>> findAll(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list("SELECT " + COLUMNS + " FROM application WHERE application_id IN (:ids)", Params.of("ids", ids),
                ApplicationRepository::map);
    }

    /** A page of the applications matching {@code nameContains} that {@code reader} may read. */
    public Uni<List<ApplicationRow>> list(String nameContains, Caller reader, int limit, int offset) {
        Where where = matching(nameContains, reader);
        return list("SELECT " + COLUMNS + " FROM application" + where.sql() + " ORDER BY application_id"
                        + Paging.CLAUSE, Params.none().and(where.params()).and(new Paging(limit, offset).params()),
                ApplicationRepository::map);
    }

    public Uni<Long> count(String nameContains, Caller reader) {
        Where where = matching(nameContains, reader);
        return single("SELECT count(*) FROM application" + where.sql(), Long.class, where.params());
    }

    private static Where matching(String nameContains, Caller reader) {
        Where where = Where.all();
        if (nameContains != null) {
            where.and("name ILIKE '%' || CAST(:name AS text) || '%'", Params.of("name", nameContains));
        }
        return where.and(ReadFilter.condition("application.application_id"), ReadFilter.params(reader));
    }

    private static void addCount(List<String> parts, long n, String what) {
        if (n > 0) {
            parts.add(n + " " + what);
        }
    }

    private static ApplicationRow map(Row r) {
        return new ApplicationRow(r.getLong("application_id"), r.getString("name"), r.getString("description"),
                r.getString("owner"), r.getTime("created_at"), r.getTime("updated_at"),
                new ApplicationRow.Permissions(r.getString("owner_user"), r.getString("owner_group"),
                        r.getInt("owner_permission"), r.getInt("group_permission"), r.getInt("others_permission")));
    }
}
