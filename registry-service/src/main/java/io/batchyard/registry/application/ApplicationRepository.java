package io.batchyard.registry.application;

import io.batchyard.api.access.Caller;
import io.batchyard.persistence.Columns;
import io.batchyard.registry.NativeSqlRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** SQL over {@code application}; every statement joins the session of the calling service method. */
@ApplicationScoped
public class ApplicationRepository extends NativeSqlRepository {

    private static final String COLUMNS = "application_id, name, description, owner, created_at, updated_at,"
            + " owner_user, owner_group, owner_permission, group_permission, others_permission";
    /** The same columns prefixed with the alias {@code a}, for joins. */
    private static final String QUALIFIED_COLUMNS = COLUMNS.replaceAll("(\\w+)", "a.$1");

    public Uni<ApplicationRow> insert(String name, String description, String owner, String ownerUser,
                                      String ownerGroup) {
        return rows("""
                        INSERT INTO application (name, description, owner, owner_user, owner_group)
                        VALUES (:name, :description, :owner, :ownerUser, CAST(:ownerGroup AS text)) RETURNING\s"""
                        + COLUMNS,
                "name", name, "description", description, "owner", owner, "ownerUser", ownerUser,
                "ownerGroup", ownerGroup)
                .map(list -> map(list.get(0)));
    }

    public Uni<Optional<ApplicationRow>> setPermissions(long id, ApplicationRow.Permissions p) {
        return row("""
                        UPDATE application SET owner_user = CAST(:ownerUser AS text),
                          owner_group = CAST(:ownerGroup AS text), owner_permission = :owner,
                          group_permission = :group, others_permission = :others, updated_at = now()
                        WHERE application_id = :id RETURNING\s""" + COLUMNS,
                "id", id, "ownerUser", p.ownerUser(), "ownerGroup", p.ownerGroup(), "owner", p.owner(),
                "group", p.group(), "others", p.others())
                .map(r -> r.map(ApplicationRepository::map));
    }

    public Uni<Void> markAnnounced(long id) {
        return update("UPDATE application SET announced_at = now() WHERE application_id = :id", "id", id)
                .replaceWithVoid();
    }

    /** Applications whose current state was never put on the registry topic (seeded rows, rows from before). */
    public Uni<List<ApplicationRow>> unannounced() {
        return rows("SELECT " + COLUMNS + " FROM application WHERE announced_at IS NULL ORDER BY application_id"
                + " FOR UPDATE SKIP LOCKED")
                .map(list -> list.stream().map(ApplicationRepository::map).toList());
    }

    public Uni<Boolean> isMasterData(long id) {
        return scalar("SELECT count(*) FROM application WHERE application_id = :id AND master_data", Long.class,
                "id", id).map(n -> n > 0);
    }

    /** The application of a process, if the process exists. */
    public Uni<Optional<ApplicationRow>> ofProcess(long processId) {
        return row("SELECT " + QUALIFIED_COLUMNS + """
                         FROM application a JOIN process p ON p.application_id = a.application_id
                        WHERE p.process_id = :id""", "id", processId)
                .map(r -> r.map(ApplicationRepository::map));
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

    /** What still belongs to the application: processes (deleted ones included), templates and Hive tables. */
    public Uni<String> dependents(long id) {
        return row("""
                        SELECT (SELECT count(*) FROM process WHERE application_id = :id),
                               (SELECT count(*) FROM process_template WHERE application_id = :id),
                               (SELECT count(*) FROM hive_table WHERE application_id = :id)""", "id", id)
                .map(found -> {
                    Object[] r = found.orElseThrow();
                    List<String> parts = new ArrayList<>();
                    String[] names = {"process(es)", "template(s)", "Hive table(s)"};
                    for (int i = 0; i < names.length; i++) {
                        long n = Columns.toLong(r[i]);
                        if (n > 0) {
                            parts.add(n + " " + names[i]);
                        }
                    }
                    return String.join(", ", parts);
                });
    }

    /** The applications among {@code ids} that exist. */
    public Uni<List<ApplicationRow>> findAll(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return rows("SELECT " + COLUMNS + " FROM application WHERE application_id IN (:ids)", "ids", ids)
                .map(list -> list.stream().map(ApplicationRepository::map).toList());
    }

    /** A page of the applications matching {@code nameContains} that {@code reader} may read. */
    public Uni<List<ApplicationRow>> list(String nameContains, Caller reader, int limit, int offset) {
        return rows("SELECT " + COLUMNS + " FROM application WHERE " + NAME_MATCHES + " AND "
                        + readableBy("application.application_id")
                        + " ORDER BY application_id LIMIT :limit OFFSET :offset",
                with(readerParams(reader), "name", nameContains, "limit", limit, "offset", offset))
                .map(list -> list.stream().map(ApplicationRepository::map).toList());
    }

    public Uni<Long> count(String nameContains, Caller reader) {
        return scalar("SELECT count(*) FROM application WHERE " + NAME_MATCHES + " AND "
                        + readableBy("application.application_id"), Long.class,
                with(readerParams(reader), "name", nameContains));
    }

    private static final String NAME_MATCHES =
            "(CAST(:name AS text) IS NULL OR name ILIKE '%' || CAST(:name AS text) || '%')";

    /**
     * A condition that keeps only rows of applications {@code reader} holds read permission on, for the lists of
     * every feature, decided in the query so that totals and pages agree. {@code applicationIdColumn} names the
     * row's application; the parameters come from {@link #readerParams}. The permission type is the one
     * {@link io.batchyard.api.access.ApplicationAccess#typeFor} gives: the owner's if the reader owns the application,
     * else the group's if the reader is in the owner group, else the others'; read is its bit 4. Administrators read
     * everything.
     */
    public static String readableBy(String applicationIdColumn) {
        return """
                (CAST(:readerAdmin AS boolean) OR EXISTS (
                  SELECT 1 FROM application readable WHERE readable.application_id = %s
                     AND ((CASE WHEN readable.owner_user = CAST(:reader AS text) THEN readable.owner_permission
                                WHEN readable.owner_group IN (SELECT jsonb_array_elements_text(
                                                           CAST(CAST(:readerGroups AS text) AS jsonb)))
                                     THEN readable.group_permission
                                ELSE readable.others_permission END) & 4) <> 0))""".formatted(applicationIdColumn);
    }

    /** The parameters of {@link #readableBy}. */
    public static Object[] readerParams(Caller reader) {
        // Group names are free text: a JSON array carries any of them intact (cast to text first in the query: the
        // reactive driver would send a string bound straight to jsonb as a JSON string).
        return new Object[] {"readerAdmin", reader.admin(), "reader", reader.name(),
                "readerGroups", new JsonArray(List.copyOf(reader.groups())).encode()};
    }

    private static ApplicationRow map(Object[] r) {
        return new ApplicationRow(Columns.toLong(r[0]), Columns.string(r[1]), Columns.string(r[2]), Columns.string(r[3]),
                Columns.time(r[4]), Columns.time(r[5]), new ApplicationRow.Permissions(Columns.string(r[6]),
                        Columns.string(r[7]), Columns.toInt(r[8]), Columns.toInt(r[9]), Columns.toInt(r[10])));
    }
}
