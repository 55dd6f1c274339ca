package io.batchyard.registry.server;

import io.batchyard.persistence.Paging;
import io.batchyard.persistence.Params;
import io.batchyard.persistence.Row;
import io.batchyard.persistence.SqlRepository;
import io.batchyard.persistence.Where;
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
public class ServerRepository extends SqlRepository {

    private static final String COLUMNS = """
            server_id, server_type, server_name, server_metainfo, login_user,
            login_password_ct IS NOT NULL AS has_password, ssh_private_key_ct IS NOT NULL AS has_key,
            ssh_key_fingerprint, server_ip, server_port, created_at, updated_at""";

    public Uni<Long> nextId() {
        return single("SELECT nextval(pg_get_serial_sequence('server', 'server_id'))", Long.class, Params.none());
    }

    public Uni<Void> insert(long id, ServerRequest r) {
        return update("""
                        INSERT INTO server (server_id, server_type, server_name, server_metainfo, login_user, server_ip,
                          server_port)
                        OVERRIDING SYSTEM VALUE VALUES (:id, :serverType, :serverName, CAST(:serverMetainfo AS text),
                          CAST(:loginUser AS text), CAST(:serverIp AS text), CAST(:serverPort AS integer))""",
                requestParams(r).and("id", id))
                .replaceWithVoid();
    }

    public Uni<Boolean> update(long id, ServerRequest r) {
        return update("""
                        UPDATE server SET server_type = :serverType, server_name = :serverName,
                          server_metainfo = CAST(:serverMetainfo AS text), login_user = CAST(:loginUser AS text),
                          server_ip = CAST(:serverIp AS text), server_port = CAST(:serverPort AS integer),
                          updated_at = now() WHERE server_id = :id""",
                requestParams(r).and("id", id))
                .map(n -> n == 1);
    }

    public Uni<Void> setPassword(long id, byte[] ciphertext, String keyId) {
        return update("""
                        UPDATE server SET login_password_ct = CAST(:ct AS bytea), secrets_key_id = :keyId
                        WHERE server_id = :id""",
                Params.of("id", id).and("ct", ciphertext).and("keyId", keyId))
                .replaceWithVoid();
    }

    public Uni<Void> setSshKey(long id, byte[] ciphertext, String fingerprint, String keyId) {
        return update("""
                        UPDATE server SET ssh_private_key_ct = CAST(:ct AS bytea), ssh_key_fingerprint = CAST(:fp AS text),
                          secrets_key_id = :keyId
                        WHERE server_id = :id""",
                Params.of("id", id).and("ct", ciphertext).and("fp", fingerprint).and("keyId", keyId))
                .replaceWithVoid();
    }

    /** A server's ciphertexts and the id of the key that sealed them (null when it holds none). */
    public Uni<Optional<ServerSecrets>> secrets(long id) {
        return first("SELECT " + SECRETS + " FROM server WHERE server_id = :id", Params.of("id", id),
                ServerRepository::secrets);
    }

    /**
     * The servers with a ciphertext sealed under another key than {@code keyId}, locked against other changes of
     * them until the caller's transaction ends (not against new links to them).
     */
    public Uni<List<ServerSecrets>> lockSecretsNotUnder(String keyId) {
        return list("SELECT " + SECRETS + """
                         FROM server
                        WHERE (login_password_ct IS NOT NULL OR ssh_private_key_ct IS NOT NULL)
                          AND secrets_key_id <> :keyId
                        ORDER BY server_id FOR NO KEY UPDATE""", Params.of("keyId", keyId),
                ServerRepository::secrets);
    }

    /** Replaces both ciphertexts of a server, sealed under key {@code keyId}. */
    public Uni<Void> setSecrets(long id, byte[] password, byte[] sshKey, String keyId) {
        return update("""
                        UPDATE server SET login_password_ct = CAST(:pw AS bytea),
                          ssh_private_key_ct = CAST(:key AS bytea), secrets_key_id = :keyId
                        WHERE server_id = :id""",
                Params.of("id", id).and("pw", password).and("key", sshKey).and("keyId", keyId))
                .replaceWithVoid();
    }

    public Uni<Boolean> nameTaken(String name, Long exceptId) {
        return single("""
                        SELECT count(*) FROM server
                        WHERE server_name = :name AND server_id IS DISTINCT FROM CAST(:except AS bigint)""",
                Long.class, Params.of("name", name).and("except", exceptId))
                .map(n -> n > 0);
    }

    /**
     * Locks the row against new links: a process naming the server takes a key-share lock through its foreign key,
     * which waits for this one. A delete holds it while it checks that no live process names the server.
     */
    public Uni<Optional<ServerRow>> lockAgainstLinks(long id) {
        return first("SELECT " + COLUMNS + " FROM server WHERE server_id = :id FOR UPDATE", Params.of("id", id),
                ServerRepository::map);
    }

    /**
     * Locks the row against other changes of it and against readers for events ({@link #findAllForEvents}); a
     * process may still be linked to it meanwhile (the foreign key's key-share lock does not wait for this one).
     */
    public Uni<Optional<ServerRow>> lockForChange(long id) {
        return first("SELECT " + COLUMNS + " FROM server WHERE server_id = :id FOR NO KEY UPDATE",
                Params.of("id", id), ServerRepository::map);
    }

    /**
     * The servers among {@code ids}, for an event that carries them: a share lock, so the event never carries an
     * address a change of the server in progress is replacing (it waits for that change to commit).
     */
    public Uni<List<ServerRow>> findAllForEvents(Collection<Long> ids) {
        if (ids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return list("SELECT " + COLUMNS + " FROM server WHERE server_id IN (:ids) ORDER BY server_id FOR SHARE",
                Params.of("ids", ids), ServerRepository::map);
    }

    public Uni<Optional<ServerRow>> find(long id) {
        return first("SELECT " + COLUMNS + " FROM server WHERE server_id = :id", Params.of("id", id),
                ServerRepository::map);
    }

    public Uni<List<ServerRow>> list(String type, int limit, int offset) {
        Where where = Where.all().eq("server_type", type);
        return list("SELECT " + COLUMNS + " FROM server" + where.sql() + " ORDER BY server_id" + Paging.CLAUSE,
                Params.none().and(where.params()).and(new Paging(limit, offset).params()), ServerRepository::map);
    }

    public Uni<Long> count(String type) {
        Where where = Where.all().eq("server_type", type);
        return single("SELECT count(*) FROM server" + where.sql(), Long.class, where.params());
    }

    public Uni<Boolean> delete(long id) {
        return update("DELETE FROM server WHERE server_id = :id", Params.of("id", id)).map(n -> n == 1);
    }

    /** Ciphertexts as hex text: what the driver hands back for bytea is then no concern of this code. */
    private static final String SECRETS = """
            server_id, encode(login_password_ct, 'hex') AS login_password_hex,
            encode(ssh_private_key_ct, 'hex') AS ssh_private_key_hex, secrets_key_id""";

    private static Params requestParams(ServerRequest r) {
        return Params.of("serverType", r.serverType()).and("serverName", r.serverName())
                .and("serverMetainfo", r.serverMetainfo()).and("loginUser", r.loginUser())
                .and("serverIp", r.serverIp()).and("serverPort", r.serverPort());
    }

    private static ServerSecrets secrets(Row r) {
        return new ServerSecrets(r.getLong("server_id"), bytes(r, "login_password_hex"),
                bytes(r, "ssh_private_key_hex"), r.getString("secrets_key_id"));
    }

    /** A ciphertext selected as {@code encode(column, 'hex')}, or null. */
    static byte[] bytes(Row r, String hexColumn) {
        String hex = r.getString(hexColumn);
        return hex == null ? null : HexFormat.of().parseHex(hex);
    }

    private static ServerRow map(Row r) {
        return new ServerRow(r.getLong("server_id"), r.getString("server_type"), r.getString("server_name"),
                r.getString("server_metainfo"), r.getString("login_user"), r.getBoolean("has_password"),
                r.getBoolean("has_key"), r.getString("ssh_key_fingerprint"), r.getString("server_ip"),
                r.getIntOrNull("server_port"), r.getTime("created_at"), r.getTime("updated_at"));
    }
}
