package io.batchyard.registry.server;

import io.batchyard.registry.Rows;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

@ApplicationScoped
public class ServerDao {

    private static final String COLUMNS = """
            server_id, server_type, server_name, server_metainfo, login_user,
            login_password_ct IS NOT NULL AS has_password, ssh_private_key_ct IS NOT NULL AS has_key,
            ssh_key_fingerprint, server_ip, created_at, updated_at""";

    /** The descriptive fields of a server (everything but its secrets). */
    public record Fields(String serverType, String serverName, String serverMetainfo, String loginUser,
                         String serverIp) {
    }

    public long nextId(Handle tx) {
        return tx.createQuery("SELECT nextval(pg_get_serial_sequence('server', 'server_id'))").mapTo(Long.class).one();
    }

    public void insert(Handle tx, long id, Fields f) {
        tx.createUpdate("""
                        INSERT INTO server (server_id, server_type, server_name, server_metainfo, login_user, server_ip)
                        OVERRIDING SYSTEM VALUE VALUES (:id, :serverType, :serverName, :serverMetainfo, :loginUser, :serverIp)""")
                .bind("id", id).bindMethods(f).execute();
    }

    public boolean update(Handle tx, long id, Fields f) {
        return tx.createUpdate("""
                        UPDATE server SET server_type = :serverType, server_name = :serverName,
                          server_metainfo = :serverMetainfo, login_user = :loginUser, server_ip = :serverIp,
                          updated_at = now() WHERE server_id = :id""")
                .bind("id", id).bindMethods(f).execute() == 1;
    }

    public void setPassword(Handle tx, long id, byte[] ciphertext, String keyId) {
        tx.createUpdate("UPDATE server SET login_password_ct = :ct, secrets_key_id = :keyId WHERE server_id = :id")
                .bind("id", id).bind("ct", ciphertext).bind("keyId", keyId).execute();
    }

    public void setSshKey(Handle tx, long id, byte[] ciphertext, String fingerprint, String keyId) {
        tx.createUpdate("""
                        UPDATE server SET ssh_private_key_ct = :ct, ssh_key_fingerprint = :fp, secrets_key_id = :keyId
                        WHERE server_id = :id""")
                .bind("id", id).bind("ct", ciphertext).bind("fp", fingerprint).bind("keyId", keyId).execute();
    }

    public boolean nameTaken(Handle h, String name, Long exceptId) {
        return h.createQuery("SELECT count(*) FROM server WHERE server_name = :name AND server_id IS DISTINCT FROM :except")
                .bind("name", name).bindByType("except", exceptId, Long.class).mapTo(Long.class).one() > 0;
    }

    public Optional<ServerRow> find(Handle h, long id) {
        return h.createQuery("SELECT " + COLUMNS + " FROM server WHERE server_id = :id").bind("id", id)
                .map((rs, ctx) -> map(rs)).findOne();
    }

    public List<ServerRow> list(Handle h, String type, int limit, int offset) {
        return h.createQuery("SELECT " + COLUMNS + " FROM server WHERE (:type IS NULL OR server_type = :type) "
                        + "ORDER BY server_id LIMIT :limit OFFSET :offset")
                .bindByType("type", type, String.class).bind("limit", limit).bind("offset", offset)
                .map((rs, ctx) -> map(rs)).list();
    }

    public long count(Handle h, String type) {
        return h.createQuery("SELECT count(*) FROM server WHERE (:type IS NULL OR server_type = :type)")
                .bindByType("type", type, String.class).mapTo(Long.class).one();
    }

    public boolean delete(Handle tx, long id) {
        return tx.createUpdate("DELETE FROM server WHERE server_id = :id").bind("id", id).execute() == 1;
    }

    /** The stored ciphertexts; only the credential-using code path reads them. */
    public record Secrets(byte[] loginPassword, byte[] sshPrivateKey) {
    }

    public Optional<Secrets> secrets(Handle h, long id) {
        return h.createQuery("SELECT login_password_ct, ssh_private_key_ct FROM server WHERE server_id = :id")
                .bind("id", id).map((rs, ctx) -> new Secrets(rs.getBytes(1), rs.getBytes(2))).findOne();
    }

    private static ServerRow map(ResultSet rs) throws SQLException {
        return new ServerRow(rs.getLong("server_id"), rs.getString("server_type"), rs.getString("server_name"),
                rs.getString("server_metainfo"), rs.getString("login_user"), rs.getBoolean("has_password"),
                rs.getBoolean("has_key"), rs.getString("ssh_key_fingerprint"), rs.getString("server_ip"),
                Rows.timestamp(rs, "created_at"), Rows.timestamp(rs, "updated_at"));
    }
}
