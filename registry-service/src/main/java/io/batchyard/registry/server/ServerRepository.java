package io.batchyard.registry.server;

import io.batchyard.registry.NativeSqlRepository;
import io.batchyard.persistence.Columns;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * SQL over {@code server}; reads never select the ciphertexts, except those of {@link ServerSecrets}, which only
 * re-encryption uses. Statements join the caller's session.
 */
@ApplicationScoped
public class ServerRepository extends NativeSqlRepository {

    private static final String COLUMNS = """
            server_id, server_type, server_name, server_metainfo, login_user,
            login_password_ct IS NOT NULL AS has_password, ssh_private_key_ct IS NOT NULL AS has_key,
            ssh_key_fingerprint, server_ip, server_port, created_at, updated_at""";

    public Uni<Long> nextId() {
        return scalar("SELECT nextval(pg_get_serial_sequence('server', 'server_id'))", Long.class);
    }

    public Uni<Void> insert(long id, ServerRequest r) {
        return update("""
                        INSERT INTO server (server_id, server_type, server_name, server_metainfo, login_user, server_ip,
                          server_port)
                        OVERRIDING SYSTEM VALUE VALUES (:id, :serverType, :serverName, CAST(:serverMetainfo AS text),
                          CAST(:loginUser AS text), CAST(:serverIp AS text), CAST(:serverPort AS integer))""",
                "id", id, "serverType", r.serverType(), "serverName", r.serverName(),
                "serverMetainfo", r.serverMetainfo(), "loginUser", r.loginUser(), "serverIp", r.serverIp(),
                "serverPort", r.serverPort())
                .replaceWithVoid();
    }

    public Uni<Boolean> update(long id, ServerRequest r) {
        return update("""
                        UPDATE server SET server_type = :serverType, server_name = :serverName,
                          server_metainfo = CAST(:serverMetainfo AS text), login_user = CAST(:loginUser AS text),
                          server_ip = CAST(:serverIp AS text), server_port = CAST(:serverPort AS integer),
                          updated_at = now() WHERE server_id = :id""",
                "id", id, "serverType", r.serverType(), "serverName", r.serverName(),
                "serverMetainfo", r.serverMetainfo(), "loginUser", r.loginUser(), "serverIp", r.serverIp(),
                "serverPort", r.serverPort())
                .map(n -> n == 1);
    }

    public Uni<Void> setPassword(long id, byte[] ciphertext, String keyId) {
        return update("""
                        UPDATE server SET login_password_ct = CAST(:ct AS bytea), secrets_key_id = :keyId
                        WHERE server_id = :id""",
                "id", id, "ct", ciphertext, "keyId", keyId)
                .replaceWithVoid();
    }

    public Uni<Void> setSshKey(long id, byte[] ciphertext, String fingerprint, String keyId) {
        return update("""
                        UPDATE server SET ssh_private_key_ct = CAST(:ct AS bytea), ssh_key_fingerprint = CAST(:fp AS text),
                          secrets_key_id = :keyId
                        WHERE server_id = :id""",
                "id", id, "ct", ciphertext, "fp", fingerprint, "keyId", keyId)
                .replaceWithVoid();
    }

    /** A server's ciphertexts and the id of the key that sealed them (null when it holds none). */
    public Uni<Optional<ServerSecrets>> secrets(long id) {
        return row("SELECT " + SECRETS + " FROM server WHERE server_id = :id", "id", id)
                .map(r -> r.map(ServerRepository::secrets));
    }

    /**
     * The servers with a ciphertext sealed under another key than {@code keyId}, locked against other changes of
     * them until the caller's transaction ends (not against new links to them).
     */
    public Uni<List<ServerSecrets>> lockSecretsNotUnder(String keyId) {
        return rows("SELECT " + SECRETS + """
                         FROM server
                        WHERE (login_password_ct IS NOT NULL OR ssh_private_key_ct IS NOT NULL)
                          AND secrets_key_id <> :keyId
                        ORDER BY server_id FOR NO KEY UPDATE""", "keyId", keyId)
                .map(list -> list.stream().map(ServerRepository::secrets).toList());
    }

    /** Replaces both ciphertexts of a server, sealed under key {@code keyId}. */
    public Uni<Void> setSecrets(long id, byte[] password, byte[] sshKey, String keyId) {
        return update("""
                        UPDATE server SET login_password_ct = CAST(:pw AS bytea),
                          ssh_private_key_ct = CAST(:key AS bytea), secrets_key_id = :keyId
                        WHERE server_id = :id""",
                "id", id, "pw", password, "key", sshKey, "keyId", keyId)
                .replaceWithVoid();
    }

    public Uni<Boolean> nameTaken(String name, Long exceptId) {
        return scalar("""
                        SELECT count(*) FROM server
                        WHERE server_name = :name AND server_id IS DISTINCT FROM CAST(:except AS bigint)""",
                Long.class, "name", name, "except", exceptId)
                .map(n -> n > 0);
    }

    /**
     * Locks the row against new links: a process naming the server takes a key-share lock through its foreign key,
     * which waits for this one. A delete holds it while it checks that no live process names the server.
     */
    public Uni<Optional<ServerRow>> lockAgainstLinks(long id) {
        return row("SELECT " + COLUMNS + " FROM server WHERE server_id = :id FOR UPDATE", "id", id)
                .map(r -> r.map(ServerRepository::map));
    }

    /**
     * Locks the row against other changes of it and against readers for events ({@link #findAllForEvents}); a
     * process may still be linked to it meanwhile (the foreign key's key-share lock does not wait for this one).
     */
    public Uni<Optional<ServerRow>> lockForChange(long id) {
        return row("SELECT " + COLUMNS + " FROM server WHERE server_id = :id FOR NO KEY UPDATE", "id", id)
                .map(r -> r.map(ServerRepository::map));
    }

    /**
     * The servers among {@code ids}, for an event that carries them: a share lock, so the event never carries an
     * address a change of the server in progress is replacing (it waits for that change to commit).
     */
    public Uni<List<ServerRow>> findAllForEvents(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return rows("SELECT " + COLUMNS + " FROM server WHERE server_id IN (:ids) ORDER BY server_id FOR SHARE",
                "ids", ids)
                .map(list -> list.stream().map(ServerRepository::map).toList());
    }

    public Uni<Optional<ServerRow>> find(long id) {
        return row("SELECT " + COLUMNS + " FROM server WHERE server_id = :id", "id", id)
                .map(r -> r.map(ServerRepository::map));
    }

    public Uni<List<ServerRow>> list(String type, int limit, int offset) {
        return rows("SELECT " + COLUMNS + """
                         FROM server WHERE (CAST(:type AS text) IS NULL OR server_type = CAST(:type AS text))
                        ORDER BY server_id LIMIT :limit OFFSET :offset""",
                "type", type, "limit", limit, "offset", offset)
                .map(list -> list.stream().map(ServerRepository::map).toList());
    }

    public Uni<Long> count(String type) {
        return scalar("SELECT count(*) FROM server WHERE (CAST(:type AS text) IS NULL OR server_type = CAST(:type AS text))",
                Long.class, "type", type);
    }

    public Uni<Boolean> delete(long id) {
        return update("DELETE FROM server WHERE server_id = :id", "id", id).map(n -> n == 1);
    }

    /** Ciphertexts as hex text: what the driver hands back for bytea is then no concern of this code. */
    private static final String SECRETS = """
            server_id, encode(login_password_ct, 'hex'), encode(ssh_private_key_ct, 'hex'), secrets_key_id""";

    private static ServerSecrets secrets(Object[] r) {
        return new ServerSecrets(Columns.toLong(r[0]), bytes(r[1]), bytes(r[2]), Columns.string(r[3]));
    }

    static byte[] bytes(Object hex) {
        return hex == null ? null : HexFormat.of().parseHex(Columns.string(hex));
    }

    private static ServerRow map(Object[] r) {
        return new ServerRow(Columns.toLong(r[0]), Columns.string(r[1]), Columns.string(r[2]), Columns.string(r[3]),
                Columns.string(r[4]), Columns.toBoolean(r[5]), Columns.toBoolean(r[6]), Columns.string(r[7]), Columns.string(r[8]),
                Columns.intOrNull(r[9]), Columns.time(r[10]), Columns.time(r[11]));
    }
}
