package io.batchyard.readmodel;

import io.batchyard.api.access.ApplicationAccess;
import io.batchyard.api.access.ApplicationGuard;
import io.batchyard.api.access.Caller;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.events.registry.ApplicationChanged;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** The local copy of applications' permissions; every method joins the caller's session. */
@ApplicationScoped
public class ApplicationAccessRepository extends SqlRepository {

    private static final String SELECT_LIVE = """
            SELECT application_id, owner_user, owner_group, owner_permission, group_permission, others_permission
            FROM application_access WHERE NOT deleted""";

    /** Writes an application's permissions unless the row already holds a state at least as recent as {@code at}. */
    Uni<Void> upsert(ApplicationChanged e, Instant at) {
        return update("""
                        INSERT INTO application_access (application_id, owner_user, owner_group, owner_permission,
                          group_permission, others_permission, deleted, source_occurred_at)
                        VALUES (:id, CAST(:ownerUser AS text), CAST(:ownerGroup AS text), :owner, :group, :others,
                          :deleted, :at)
                        ON CONFLICT (application_id) DO UPDATE SET owner_user = EXCLUDED.owner_user,
                          owner_group = EXCLUDED.owner_group, owner_permission = EXCLUDED.owner_permission,
                          group_permission = EXCLUDED.group_permission, others_permission = EXCLUDED.others_permission,
                          deleted = EXCLUDED.deleted, source_occurred_at = EXCLUDED.source_occurred_at
                        WHERE application_access.source_occurred_at <= EXCLUDED.source_occurred_at""",
                Params.of("id", e.getApplicationId()).and("ownerUser", e.getOwnerUser())
                        .and("ownerGroup", e.getOwnerGroup()).and("owner", (short) e.getOwnerPermission())
                        .and("group", (short) e.getGroupPermission()).and("others", (short) e.getOthersPermission())
                        .and("deleted", e.getDeleted()).and("at", OffsetDateTime.ofInstant(at, ZoneOffset.UTC)))
                .replaceWithVoid();
    }

    /** The permissions of the application {@code processId} belongs to, when both are known here. */
    public Uni<Optional<ApplicationAccess>> ofProcess(long processId) {
        return first("""
                        SELECT a.application_id, a.owner_user, a.owner_group, a.owner_permission, a.group_permission,
                          a.others_permission
                        FROM process_definition p JOIN application_access a ON a.application_id = p.application_id
                        WHERE p.process_id = :id AND NOT a.deleted""", Params.of("id", processId),
                ApplicationAccessRepository::map);
    }

    /**
     * The applications known here that {@code reader} may read, by {@link ApplicationGuard}'s rule: what a list of
     * objects keeps its rows to. An administrator reads every application, known here or not, so a list asks
     * {@link Caller#admin()} before it asks this.
     */
    public Uni<List<Long>> readableBy(Caller reader) {
        return list(SELECT_LIVE, Params.none(), ApplicationAccessRepository::map)
                .map(rows -> rows.stream().filter(a -> ApplicationGuard.canRead(reader, Optional.of(a)))
                        .map(ApplicationAccess::applicationId).toList());
    }

    /**
     * The permissions of an application itself, for objects that belong to an application rather than to a process
     * (a compaction table); empty when they never arrived or it was deleted.
     */
    public Uni<Optional<ApplicationAccess>> ofApplication(long applicationId) {
        return ofApplications(List.of(applicationId)).map(found -> found.stream().findFirst());
    }

    /** The permissions of these applications, in one statement; one that never arrived or was deleted has none. */
    public Uni<List<ApplicationAccess>> ofApplications(Collection<Long> applicationIds) {
        if (applicationIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list(SELECT_LIVE + " AND application_id IN (:ids)", Params.of("ids", applicationIds),
                ApplicationAccessRepository::map);
    }

    /**
     * The permissions in a row's columns application_id, owner_user, owner_group, owner_permission, group_permission
     * and others_permission, as this repository and a definition read joined with them select them.
     */
    static ApplicationAccess map(Row r) {
        return new ApplicationAccess(r.getLong("application_id"), r.getString("owner_user"), r.getString("owner_group"),
                r.getInt("owner_permission"), r.getInt("group_permission"), r.getInt("others_permission"));
    }
}
