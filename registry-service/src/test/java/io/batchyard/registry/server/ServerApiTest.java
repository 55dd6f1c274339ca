package io.batchyard.registry.server;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.batchyard.registry.Fixtures;
import io.batchyard.registry.RegistryTest;
import io.batchyard.teststack.BatchyardTestStack;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

@RegistryTest
class ServerApiTest {

    private static final String PASSWORD = "canary-pw-7f3a9c1e";
    private static final String SSH_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\ncanary-key-0b1d2e\n-----END OPENSSH PRIVATE KEY-----";

    @Inject
    SecretCipher cipher;

    @Test
    void secretsAreEncryptedAtRestAndNeverReturned() throws SQLException {
        Map<String, Object> body = server(Fixtures.unique("edge"));
        body.put("loginPassword", PASSWORD);
        body.put("sshPrivateKey", SSH_KEY);
        io.restassured.response.Response created = given().contentType(ContentType.JSON).body(body).post("/servers")
                .then().statusCode(201)
                .body("hasLoginPassword", equalTo(true))
                .body("hasSshPrivateKey", equalTo(true))
                .body("sshKeyFingerprint", startsWith("SHA256:"))
                .extract().response();
        assertThat(created.asString()).doesNotContain(PASSWORD).doesNotContain("canary-key");
        long id = created.jsonPath().getLong("id");

        byte[][] stored;
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement(
                "SELECT login_password_ct, ssh_private_key_ct FROM server WHERE server_id = ?")) {
            st.setLong(1, id);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                stored = new byte[][] {rs.getBytes(1), rs.getBytes(2)};
            }
        }
        assertThat(new String(stored[0], StandardCharsets.ISO_8859_1)).doesNotContain(PASSWORD);
        assertThat(new String(stored[1], StandardCharsets.ISO_8859_1)).doesNotContain("canary-key");
        assertThat(cipher.decrypt(stored[0], cipher.keyId(), SecretCipher.associatedData(id, "login_password"), "pw"))
                .isEqualTo(PASSWORD);
        assertThat(cipher.decrypt(stored[1], cipher.keyId(), SecretCipher.associatedData(id, "ssh_private_key"), "key"))
                .isEqualTo(SSH_KEY);
        long plaintextCopies;
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement("""
                SELECT count(*) FROM server WHERE server_metainfo LIKE ? OR login_user LIKE ?
                  OR encode(login_password_ct, 'escape') LIKE ?""")) {
            for (int i = 1; i <= 3; i++) {
                st.setString(i, "%" + PASSWORD + "%");
            }
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                plaintextCopies = rs.getLong(1);
            }
        }
        assertThat(plaintextCopies).isZero();

        assertThat(given().get("/servers/" + id).then().statusCode(200).extract().asString())
                .doesNotContain(PASSWORD).doesNotContain("canary-key").doesNotContain("Ct\"");
        assertThat(given().get("/servers").then().statusCode(200).extract().asString()).doesNotContain(PASSWORD);

        // PUT: an absent secret is kept, an empty one is removed
        Map<String, Object> update = server((String) body.get("serverName"));
        update.put("serverIp", "10.0.0.9");
        given().contentType(ContentType.JSON).body(update).put("/servers/" + id).then().statusCode(200)
                .body("hasLoginPassword", equalTo(true)).body("serverIp", equalTo("10.0.0.9"));
        update.put("loginPassword", "");
        given().contentType(ContentType.JSON).body(update).put("/servers/" + id).then().statusCode(200)
                .body("hasLoginPassword", equalTo(false)).body("hasSshPrivateKey", equalTo(true));
    }

    @Test
    void validationErrorsNeverEchoSecrets() {
        Map<String, Object> body = server(Fixtures.unique("edge"));
        body.put("loginPassword", PASSWORD.repeat(100));
        String problem = given().contentType(ContentType.JSON).body(body).post("/servers").then().statusCode(400)
                .body("errors.field", equalTo(java.util.List.of("loginPassword"))).extract().asString();
        assertThat(problem).doesNotContain(PASSWORD);
    }

    @Test
    void theSeededHdfsServerExistsAndNamesAreUnique() {
        given().get("/servers/123461").then().statusCode(200).body("serverName", equalTo("localhost"))
                .body("hasLoginPassword", equalTo(false));
        Map<String, Object> body = server(Fixtures.unique("edge"));
        given().contentType(ContentType.JSON).body(body).post("/servers").then().statusCode(201);
        given().contentType(ContentType.JSON).body(body).post("/servers").then().statusCode(409).body("code", equalTo(210));
        given().delete("/servers/99999999").then().statusCode(404);
    }

    static Connection connect() throws SQLException {
        var db = BatchyardTestStack.database();
        return db.connect();
    }

    /** A server's body with no secret; names are cut to the column's 45 characters. */
    static Map<String, Object> server(String name) {
        Map<String, Object> body = new HashMap<>();
        body.put("serverType", "sftp");
        body.put("serverName", name.substring(0, Math.min(45, name.length())));
        body.put("loginUser", "etl");
        body.put("serverIp", "10.0.0.5");
        return body;
    }
}
