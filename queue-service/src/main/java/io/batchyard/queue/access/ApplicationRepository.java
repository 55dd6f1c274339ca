package io.batchyard.queue.access;

import static io.batchyard.eventing.persistence.Columns.string;
import static io.batchyard.eventing.persistence.Columns.toInt;
import static io.batchyard.eventing.persistence.Columns.toLong;

import io.batchyard.api.access.ApplicationAccess;
import io.batchyard.queue.NativeRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Applications' permissions by application, from the read model's {@code application_access} (registry-service's
 * {@code ApplicationChanged} events): what compaction tables, which belong to an application rather than to a
 * process, are checked against. Every method joins the caller's session.
 */
@ApplicationScoped
public class ApplicationRepository extends NativeRepository {

    private static final String SELECT = """
            SELECT application_id, owner_user, owner_group, owner_permission, group_permission, others_permission
            FROM application_access WHERE NOT deleted""";

    /** The permissions of one application; empty when they never arrived or it was deleted. */
    public Uni<Optional<ApplicationAccess>> find(long applicationId) {
        return first(SELECT + " AND application_id = :id", q -> q.setParameter("id", applicationId),
                ApplicationRepository::row);
    }

    /** The permissions of these applications, one statement; one that never arrived or was deleted has none. */
    public Uni<List<ApplicationAccess>> findAll(Collection<Long> applicationIds) {
        if (applicationIds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return rows(SELECT + " AND application_id IN (:ids)", q -> q.setParameter("ids", applicationIds),
                ApplicationRepository::row);
    }

    private static ApplicationAccess row(Object[] r) {
        return new ApplicationAccess(toLong(r[0]), string(r[1]), string(r[2]), toInt(r[3]), toInt(r[4]), toInt(r[5]));
    }
}
