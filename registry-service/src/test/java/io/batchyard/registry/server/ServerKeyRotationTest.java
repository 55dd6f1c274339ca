package io.batchyard.registry.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.batchyard.registry.Fixtures;
import io.batchyard.registry.RegistryTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Rotating the secrets key: the test application runs with the current key (id k1) and a previous one (id k0). Rows
 * sealed under the previous key are written here as an installation that used it would have left them; the
 * application opens them, re-encryption moves every row to the current key, and the current key alone then opens
 * every stored credential.
 */
@RegistryTest
class ServerKeyRotationTest {

    private static final String OLD_PASSWORD = "old-canary-pw-5d1c";
    private static final String OLD_SSH_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nold-canary-9e2f\n-----END";
    private static final String OLD_PROPERTY = "old-canary-prop-77ab";

    @Inject
    SecretCipher cipher;

    @ConfigProperty(name = "batchyard.secrets.key")
    String currentKey;

    @ConfigProperty(name = "batchyard.secrets.previous-key")
    String previousKey;

    @Test
    void credentialsUnderThePreviousKeyReadAndReEncryptionMovesEveryRowToTheCurrentKey() throws SQLException {
        SecretCipher previous = new SecretCipher(Optional.of(previousKey), "k0", Optional.empty(), Optional.empty());
        assertThat(cipher.keyId()).isEqualTo("k1");
        assertThat(cipher.previousKeyId()).contains("k0");

        // a server and a secret property sealed under the previous key, as before the rotation
        long server = createServer();
        String pwAad = SecretCipher.associatedData(server, SecretCipher.PASSWORD);
        String keyAad = SecretCipher.associatedData(server, SecretCipher.SSH_KEY);
        sql("UPDATE server SET login_password_ct = ?, ssh_private_key_ct = ?, secrets_key_id = 'k0' "
                + "WHERE server_id = ?",
                previous.encrypt(OLD_PASSWORD, pwAad), previous.encrypt(OLD_SSH_KEY, keyAad), server);
        long process = Fixtures.parent(Fixtures.application(), Fixtures.SEMANTIC);
        given().contentType(ContentType.JSON).body(Map.of("configGroup", "credential", "value", "set-through-api"))
                .put("/processes/" + process + "/properties/db.password").then().statusCode(200);
        // the property feature seals with the associated data re-encryption opens it with
        assertThat(cipher.decrypt(propertyCiphertext(process, "db.password"), "k1",
                SecretCipher.propertyAssociatedData(process, "db.password"), "it")).isEqualTo("set-through-api");
        String propAad = SecretCipher.propertyAssociatedData(process, "db.password");
        sql("UPDATE property SET prop_value_ct = ?, secrets_key_id = 'k0' WHERE process_id = ? AND prop_key = ?",
                previous.encrypt(OLD_PROPERTY, propAad), process, "db.password");

        // written under the previous key, read with it as the previous key
        byte[][] before = serverCiphertexts(server);
        assertThat(cipher.decrypt(before[0], "k0", pwAad, "pw")).isEqualTo(OLD_PASSWORD);
        assertThat(cipher.decrypt(before[1], "k0", keyAad, "key")).isEqualTo(OLD_SSH_KEY);

        String answer = given().post("/servers/re-encrypt").then().statusCode(200)
                .body("keyId", equalTo("k1")).extract().asString();
        assertThat(answer).doesNotContain(OLD_PASSWORD, OLD_PROPERTY, "canary");
        assertThat(given().post("/servers/re-encrypt").jsonPath().getInt("rewritten")).as("idempotent").isZero();
        assertThat(scalar("""
                SELECT (SELECT count(*) FROM server WHERE secrets_key_id <> 'k1'
                          AND (login_password_ct IS NOT NULL OR ssh_private_key_ct IS NOT NULL))
                     + (SELECT count(*) FROM property WHERE prop_value_ct IS NOT NULL AND secrets_key_id <> 'k1')"""))
                .as("rows left under another key").isZero();

        // the previous key dropped: the current key alone opens every stored credential, these with their values
        SecretCipher currentOnly = new SecretCipher(Optional.of(currentKey), "k1", Optional.empty(), Optional.empty());
        byte[][] after = serverCiphertexts(server);
        assertThat(currentOnly.decrypt(after[0], "k1", pwAad, "pw")).isEqualTo(OLD_PASSWORD);
        assertThat(currentOnly.decrypt(after[1], "k1", keyAad, "key")).isEqualTo(OLD_SSH_KEY);
        assertThat(currentOnly.decrypt(propertyCiphertext(process, "db.password"), "k1", propAad, "prop"))
                .isEqualTo(OLD_PROPERTY);
        for (Sealed s : everySealed()) {
            assertThat(currentOnly.decrypt(s.ciphertext(), s.keyId(), s.aad(), s.aad())).isNotNull();
        }
    }

    @Test
    void aNewSecretBesideOneUnderThePreviousKeyLeavesBothReadableUnderTheCurrentKey() throws SQLException {
        SecretCipher previous = new SecretCipher(Optional.of(previousKey), "k0", Optional.empty(), Optional.empty());
        long server = createServer();
        String keyAad = SecretCipher.associatedData(server, SecretCipher.SSH_KEY);
        sql("UPDATE server SET ssh_private_key_ct = ?, secrets_key_id = 'k0' WHERE server_id = ?",
                previous.encrypt(OLD_SSH_KEY, keyAad), server);

        // only the password changes; the row has one key id, so the kept SSH key moves to the current key with it
        Map<String, Object> body = ServerApiTest.server(serverName(server));
        body.put("loginPassword", "new-pw");
        given().contentType(ContentType.JSON).body(body).put("/servers/" + server).then().statusCode(200)
                .body("hasLoginPassword", equalTo(true)).body("hasSshPrivateKey", equalTo(true));
        assertThat(scalar("SELECT count(*) FROM server WHERE server_id = " + server + " AND secrets_key_id = 'k1'"))
                .isEqualTo(1);
        byte[][] stored = serverCiphertexts(server);
        assertThat(cipher.decrypt(stored[0], "k1", SecretCipher.associatedData(server, SecretCipher.PASSWORD), "pw"))
                .isEqualTo("new-pw");
        assertThat(cipher.decrypt(stored[1], "k1", keyAad, "key")).isEqualTo(OLD_SSH_KEY);
    }

    @Test
    void aSecretUnderAnUnknownKeyIdIsAClearRefusalAndNothingIsRewritten() throws SQLException {
        SecretCipher previous = new SecretCipher(Optional.of(previousKey), "k0", Optional.empty(), Optional.empty());
        long lost = createServer();
        sql("UPDATE server SET login_password_ct = ?, secrets_key_id = 'lost-key' WHERE server_id = ?",
                previous.encrypt(OLD_PASSWORD, SecretCipher.associatedData(lost, SecretCipher.PASSWORD)), lost);
        long readable = createServer();
        sql("UPDATE server SET login_password_ct = ?, secrets_key_id = 'k0' WHERE server_id = ?",
                previous.encrypt(OLD_PASSWORD, SecretCipher.associatedData(readable, SecretCipher.PASSWORD)),
                readable);
        try {
            String problem = given().post("/servers/re-encrypt").then().statusCode(409)
                    .contentType("application/problem+json").body("code", equalTo(226))
                    .extract().asString();
            assertThat(problem).contains("server " + lost, "'lost-key'").doesNotContain(OLD_PASSWORD, previousKey);
            assertThat(scalar("SELECT count(*) FROM server WHERE server_id = " + readable
                    + " AND secrets_key_id = 'k0'")).as("all or nothing: the readable row is untouched").isEqualTo(1);

            // setting the unreadable secret again (here: removing it) is the way out; then re-encryption completes
            Map<String, Object> body = ServerApiTest.server(serverName(lost));
            body.put("loginPassword", "");
            given().contentType(ContentType.JSON).body(body).put("/servers/" + lost).then().statusCode(200)
                    .body("hasLoginPassword", equalTo(false));
            assertThat(given().post("/servers/re-encrypt").then().statusCode(200).extract().jsonPath()
                    .getInt("servers")).isGreaterThanOrEqualTo(1);
        } finally {
            // never leave a row the other tests' re-encryptions would refuse
            sql("UPDATE server SET login_password_ct = NULL, secrets_key_id = NULL WHERE server_id = ? "
                    + "AND secrets_key_id = 'lost-key'", lost);
        }
    }

    // ---- helpers ----

    private record Sealed(byte[] ciphertext, String keyId, String aad) {
    }

    /** Every ciphertext stored in the registry, with the key id and associated data it was sealed with. */
    private static List<Sealed> everySealed() throws SQLException {
        List<Sealed> all = new ArrayList<>();
        try (Connection c = ServerApiTest.connect(); PreparedStatement st = c.prepareStatement("""
                SELECT server_id, login_password_ct, ssh_private_key_ct, secrets_key_id FROM server
                WHERE login_password_ct IS NOT NULL OR ssh_private_key_ct IS NOT NULL""");
             ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                long id = rs.getLong(1);
                if (rs.getBytes(2) != null) {
                    all.add(new Sealed(rs.getBytes(2), rs.getString(4),
                            SecretCipher.associatedData(id, SecretCipher.PASSWORD)));
                }
                if (rs.getBytes(3) != null) {
                    all.add(new Sealed(rs.getBytes(3), rs.getString(4),
                            SecretCipher.associatedData(id, SecretCipher.SSH_KEY)));
                }
            }
        }
        try (Connection c = ServerApiTest.connect(); PreparedStatement st = c.prepareStatement(
                "SELECT process_id, prop_key, prop_value_ct, secrets_key_id FROM property "
                        + "WHERE prop_value_ct IS NOT NULL");
             ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
                all.add(new Sealed(rs.getBytes(3), rs.getString(4),
                        SecretCipher.propertyAssociatedData(rs.getLong(1), rs.getString(2))));
            }
        }
        assertThat(all).isNotEmpty();
        return all;
    }

    /** A server without secrets; the tests seal its ciphertexts themselves. */
    private static long createServer() {
        return given().contentType(ContentType.JSON).body(ServerApiTest.server(Fixtures.unique("rot"))).post("/servers")
                .then().statusCode(201).extract().jsonPath().getLong("id");
    }

    private static String serverName(long id) {
        return given().get("/servers/" + id).then().statusCode(200).extract().jsonPath().getString("serverName");
    }

    private static byte[][] serverCiphertexts(long id) throws SQLException {
        try (Connection c = ServerApiTest.connect(); PreparedStatement st = c.prepareStatement(
                "SELECT login_password_ct, ssh_private_key_ct FROM server WHERE server_id = ?")) {
            st.setLong(1, id);
            try (ResultSet rs = st.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return new byte[][] {rs.getBytes(1), rs.getBytes(2)};
            }
        }
    }

    private static byte[] propertyCiphertext(long process, String key) throws SQLException {
        try (Connection c = ServerApiTest.connect(); PreparedStatement st = c.prepareStatement(
                "SELECT prop_value_ct FROM property WHERE process_id = ? AND prop_key = ?")) {
            st.setLong(1, process);
            st.setString(2, key);
            try (ResultSet rs = st.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getBytes(1);
            }
        }
    }

    private static void sql(String statement, Object... params) throws SQLException {
        try (Connection c = ServerApiTest.connect(); PreparedStatement st = c.prepareStatement(statement)) {
            for (int i = 0; i < params.length; i++) {
                st.setObject(i + 1, params[i]);
            }
            st.executeUpdate();
        }
    }

    private static long scalar(String query) throws SQLException {
        try (Connection c = ServerApiTest.connect(); PreparedStatement st = c.prepareStatement(query);
             ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
