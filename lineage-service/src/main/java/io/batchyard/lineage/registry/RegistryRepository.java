package io.batchyard.lineage.registry;

import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
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
public class RegistryRepository extends SqlRepository {

    /** {@code server} may be null: the process names none. */
    public Uni<Void> upsertProcess(long processId, long applicationId, RegisteredServer server, Instant at) {
        return update("""
                        INSERT INTO registry_process (process_id, application_id, server_id, server_name, server_type,
                                                      server_host, server_port, source_occurred_at)
                        VALUES (:process, :application, CAST(:serverId AS bigint), CAST(:serverName AS text),
                                CAST(:serverType AS text), CAST(:serverHost AS text), CAST(:serverPort AS integer), :at)
                        ON CONFLICT (process_id) DO UPDATE
                           SET application_id = EXCLUDED.application_id, server_id = EXCLUDED.server_id,
                               server_name = EXCLUDED.server_name, server_type = EXCLUDED.server_type,
                               server_host = EXCLUDED.server_host, server_port = EXCLUDED.server_port,
                               source_occurred_at = EXCLUDED.source_occurred_at
                         WHERE registry_process.source_occurred_at <= EXCLUDED.source_occurred_at""",
                Params.of("process", processId).and("application", applicationId)
                        .and("serverId", server == null ? null : server.id())
                        .and("serverName", server == null ? null : server.name())
                        .and("serverType", server == null ? null : server.type())
                        .and("serverHost", server == null ? null : server.host())
                        .and("serverPort", server == null ? null : server.port())
                        .and("at", at.atOffset(ZoneOffset.UTC)))
                .replaceWithVoid();
    }

    /**
     * The server the process names, else the one its parent names ({@code parentProcessId} may be null); empty when
     * neither names one (or the registry has not announced them).
     */
    public Uni<Optional<RegisteredServer>> server(long processId, Long parentProcessId) {
        List<Long> processIds = parentProcessId == null ? List.of(processId) : List.of(processId, parentProcessId);
        return first("""
                        SELECT server_id, server_name, server_type, server_host, server_port
                          FROM registry_process
                         WHERE process_id IN (:processes) AND server_id IS NOT NULL
                         ORDER BY process_id = :first DESC
                         LIMIT 1""", Params.of("processes", processIds).and("first", processIds.get(0)),
                RegistryRepository::server);
    }

    public Uni<Void> upsertApplication(long applicationId, String name, boolean deleted, Instant at) {
        return update("""
                        INSERT INTO registry_application (application_id, name, deleted, source_occurred_at)
                        VALUES (:application, :name, :deleted, :at)
                        ON CONFLICT (application_id) DO UPDATE
                           SET name = EXCLUDED.name, deleted = EXCLUDED.deleted,
                               source_occurred_at = EXCLUDED.source_occurred_at
                         WHERE registry_application.source_occurred_at <= EXCLUDED.source_occurred_at""",
                Params.of("application", applicationId).and("name", name).and("deleted", deleted)
                        .and("at", at.atOffset(ZoneOffset.UTC)))
                .replaceWithVoid();
    }

    /**
     * The name of the application of the process, else of its parent ({@code parentProcessId} may be null); empty
     * when the registry has not announced it.
     */
    public Uni<Optional<String>> applicationName(long processId, Long parentProcessId) {
        List<Long> processIds = parentProcessId == null ? List.of(processId) : List.of(processId, parentProcessId);
        return value("""
                        SELECT a.name
                          FROM registry_process p
                          JOIN registry_application a ON a.application_id = p.application_id
                         WHERE p.process_id IN (:processes)
                         ORDER BY p.process_id = :first DESC
                         LIMIT 1""", String.class, Params.of("processes", processIds).and("first", processIds.get(0)));
    }

    private static RegisteredServer server(Row r) {
        return new RegisteredServer(r.getLong("server_id"), r.getString("server_name"), r.getString("server_type"),
                r.getString("server_host"), r.getIntOrNull("server_port"));
    }
}
