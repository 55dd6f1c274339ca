package io.batchyard.lineage.registry;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/**
 * {@code registry_process} and {@code registry_application}: the application and server of each process, and the
 * applications' names.
 */
@ApplicationScoped
public class RegistryRepository {

    /** {@code server} may be null: the process names none. */
    public Uni<Void> upsertProcess(long processId, long applicationId, RegisteredServer server, Instant at) {
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        INSERT INTO registry_process (process_id, application_id, server_id, server_name, server_type,
                                                      server_host, server_port, source_occurred_at)
                        VALUES (:process, :application, CAST(:serverId AS bigint), CAST(:serverName AS text),
                                CAST(:serverType AS text), CAST(:serverHost AS text), CAST(:serverPort AS integer), :at)
                        ON CONFLICT (process_id) DO UPDATE
                           SET application_id = EXCLUDED.application_id, server_id = EXCLUDED.server_id,
                               server_name = EXCLUDED.server_name, server_type = EXCLUDED.server_type,
                               server_host = EXCLUDED.server_host, server_port = EXCLUDED.server_port,
                               source_occurred_at = EXCLUDED.source_occurred_at
                         WHERE registry_process.source_occurred_at <= EXCLUDED.source_occurred_at""")
                .setParameter("process", processId).setParameter("application", applicationId)
                .setParameter("serverId", server == null ? null : server.id())
                .setParameter("serverName", server == null ? null : server.name())
                .setParameter("serverType", server == null ? null : server.type())
                .setParameter("serverHost", server == null ? null : server.host())
                .setParameter("serverPort", server == null ? null : server.port())
                .setParameter("at", at.atOffset(ZoneOffset.UTC))
                .executeUpdate().replaceWithVoid());
    }

    /**
     * The server the process names, else the one its parent names ({@code parentProcessId} may be null); empty when
     * neither names one (or the registry has not announced them).
     */
    public Uni<Optional<RegisteredServer>> server(long processId, Long parentProcessId) {
        List<Long> processIds = parentProcessId == null ? List.of(processId) : List.of(processId, parentProcessId);
        return Panache.getSession().chain(s -> s.createNativeQuery("""
                        SELECT server_id, server_name, server_type, server_host, server_port
                          FROM registry_process
                         WHERE process_id IN (:processes) AND server_id IS NOT NULL
                         ORDER BY process_id = :first DESC
                         LIMIT 1""", Object[].class)
                .setParameter("processes", processIds).setParameter("first", processIds.get(0))
                .getResultList())
                .map(rows -> rows.stream().findFirst().map(r -> new RegisteredServer(((Number) r[0]).longValue(),
                        (String) r[1], (String) r[2], (String) r[3], r[4] == null ? null : ((Number) r[4]).intValue())));
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
