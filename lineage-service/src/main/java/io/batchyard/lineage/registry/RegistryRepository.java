package io.batchyard.lineage.registry;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/** {@code registry_process} and {@code registry_application}: the application of each process, and its name. */
@ApplicationScoped
public class RegistryRepository {

    public Uni<Void> upsertProcess(long processId, long applicationId, Instant at) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO registry_process (process_id, application_id, source_occurred_at)
                        VALUES (:process, :application, :at)
                        ON CONFLICT (process_id) DO UPDATE
                           SET application_id = EXCLUDED.application_id, source_occurred_at = EXCLUDED.source_occurred_at
                         WHERE registry_process.source_occurred_at <= EXCLUDED.source_occurred_at""")
                .setParameter("process", processId).setParameter("application", applicationId)
                .setParameter("at", at.atOffset(ZoneOffset.UTC))
                .executeUpdate().replaceWithVoid());
    }

    public Uni<Void> upsertApplication(long applicationId, String name, boolean deleted, Instant at) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO registry_application (application_id, name, deleted, source_occurred_at)
                        VALUES (:application, :name, :deleted, :at)
                        ON CONFLICT (application_id) DO UPDATE
                           SET name = EXCLUDED.name, deleted = EXCLUDED.deleted,
                               source_occurred_at = EXCLUDED.source_occurred_at
                         WHERE registry_application.source_occurred_at <= EXCLUDED.source_occurred_at""")
                .setParameter("application", applicationId).setParameter("name", name)
                .setParameter("deleted", deleted).setParameter("at", at.atOffset(ZoneOffset.UTC))
                .executeUpdate().replaceWithVoid());
    }

    /**
     * The name of the application of the process, else of its parent ({@code parentProcessId} may be null); empty
     * when the registry has not announced it.
     */
    public Uni<Optional<String>> applicationName(long processId, Long parentProcessId) {
        List<Long> processIds = parentProcessId == null ? List.of(processId) : List.of(processId, parentProcessId);
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        SELECT a.name
                          FROM registry_process p
                          JOIN registry_application a ON a.application_id = p.application_id
                         WHERE p.process_id IN (:processes)
                         ORDER BY p.process_id = :first DESC
                         LIMIT 1""", String.class)
                .setParameter("processes", processIds).setParameter("first", processIds.get(0))
                .getResultList())
                .map(names -> names.stream().findFirst());
    }
}
