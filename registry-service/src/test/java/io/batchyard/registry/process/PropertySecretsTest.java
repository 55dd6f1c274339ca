package io.batchyard.registry.process;

import static io.batchyard.registry.Fixtures.INGESTION;
import static io.batchyard.registry.Fixtures.SFTP;
import static io.batchyard.registry.Fixtures.application;
import static io.batchyard.registry.Fixtures.parent;
import static io.batchyard.registry.Fixtures.step;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.batchyard.events.registry.ProcessChanged;
import io.batchyard.registry.RegistryTest;
import io.batchyard.registry.server.SecretCipher;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.EventProbe;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/** Secret properties are write-only; script properties name a script inside the runner's script directory. */
@RegistryTest
class PropertySecretsTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    SecretCipher cipher;

    @Inject
    PropertyService service;

    @Test
    void aCredentialIsEncryptedAtRestAndNeverReturnedNorPublished() throws SQLException {
        String canary = "canary-" + UUID.randomUUID();
        long app = application();
        long job = parent(app, INGESTION);
        long s1 = step(app, job, SFTP);
        String answer = put(s1, "dbpass", Map.of("configGroup", "credential", "value", canary, "description", "db password"))
                .body("value", nullValue()).body("secret", equalTo(true)).extract().asString();
        put(s1, "source", Map.of("configGroup", "param", "value", "/in")).body("secret", equalTo(false));
        String one = given().get("/processes/" + s1 + "/properties/dbpass").then().statusCode(200)
                .body("value", nullValue()).body("secret", equalTo(true)).body("description", equalTo("db password"))
                .extract().asString();
        String all = given().get("/processes/" + s1 + "/properties").then().statusCode(200)
                .body("find { it.key == 'source' }.value", equalTo("/in"))
                .body("find { it.key == 'dbpass' }.value", nullValue()).extract().asString();
        assertThat(List.of(answer, one, all)).allSatisfy(body -> assertThat(body).doesNotContain(canary));

        Stored stored = stored(s1, "dbpass");
        assertThat(stored.value()).isEmpty();
        assertThat(new String(stored.ciphertext(), StandardCharsets.ISO_8859_1)).doesNotContain(canary);
        assertThat(cipher.decrypt(stored.ciphertext(), SecretCipher.propertyAssociatedData(s1, "dbpass"))).isEqualTo(canary);
        assertThat(count("SELECT count(*) FROM property WHERE prop_value LIKE ? OR description LIKE ?", canary))
                .isZero();

        try (EventProbe events = EventProbe.on(bootstrap, Topics.REGISTRY_PROCESSES)) {
            List<ProcessChanged> changes = events.all(ProcessChanged.class,
                    e -> e.getParentProcessId() == job && e.getChangedProcessIds().contains(s1), Duration.ofSeconds(2));
            assertThat(changes).hasSize(2).allSatisfy(c -> assertThat(c.toString()).doesNotContain(canary)
                    .doesNotContain("dbpass"));
        }

        // moving the key to an ordinary group makes it an ordinary, readable value again, without a ciphertext
        put(s1, "dbpass", Map.of("configGroup", "param", "value", "public")).body("value", equalTo("public"));
        assertThat(stored(s1, "dbpass").ciphertext()).isNull();
    }

    @Test
    void clearSecretsLeftByAnEarlierVersionAreSealedAtStart() throws SQLException {
        String canary = "legacy-" + UUID.randomUUID();
        long s1 = newStep();
        // the state the migration leaves: a clear row the constraint (added NOT VALID) does not judge
        try (Connection c = connect(); Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            st.execute("ALTER TABLE property DROP CONSTRAINT property_secret_not_clear");
            st.execute("INSERT INTO property (process_id, config_group, prop_key, prop_value) VALUES (" + s1
                    + ", 'credential', 'legacy', '" + canary + "')");
            st.execute("""
                    ALTER TABLE property ADD CONSTRAINT property_secret_not_clear
                        CHECK (lower(config_group) NOT IN ('credential', 'security')
                               OR (prop_value = '' AND prop_value_ct IS NOT NULL)) NOT VALID""");
            c.commit();
        }
        given().get("/processes/" + s1 + "/properties/legacy").then().statusCode(200).body("value", nullValue());

        service.sealClearSecrets(null);

        Stored stored = stored(s1, "legacy");
        assertThat(stored.value()).isEmpty();
        assertThat(cipher.decrypt(stored.ciphertext(), SecretCipher.propertyAssociatedData(s1, "legacy"))).isEqualTo(canary);
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute("ALTER TABLE property VALIDATE CONSTRAINT property_secret_not_clear");
        }
    }

    @Test
    void scriptPropertiesMustNameAScriptInsideTheScriptDirectory() {
        long s1 = newStep();
        // a NUL never gets that far: no JSON string may hold one (400, code 1)
        given().contentType(ContentType.JSON).body(Map.of("configGroup", "script", "value", "load.sh\u0000"))
                .put("/processes/" + s1 + "/properties/script").then().statusCode(400).body("code", equalTo(1));
        for (String bad : List.of("/bin/sh", "/opt/scripts/load.sh --all", "../load.sh", "etl/../../load.sh", " ",
                "load\u0007.sh", "load.sh\n--rm", "load.sh\t--all")) {
            given().contentType(ContentType.JSON).body(Map.of("configGroup", "script", "value", bad))
                    .put("/processes/" + s1 + "/properties/script").then().statusCode(422)
                    .contentType(containsString("application/problem+json")).body("code", equalTo(218));
        }
        given().contentType(ContentType.JSON).body(Map.of("configGroup", "runner", "value", "/bin/ls"))
                .put("/processes/" + s1 + "/properties/loop-script").then().statusCode(422).body("code", equalTo(218));
        given().get("/processes/" + s1 + "/properties").then().statusCode(200).body("size()", equalTo(0));

        for (String good : List.of("load.sh", "etl/load.sh --all ../not-a-path-but-an-argument", "./load.sh")) {
            put(s1, "script", Map.of("configGroup", "script", "value", good)).body("value", equalTo(good));
        }
    }

    @Test
    void templatesHoldNoSecretsAndOnlyConfinedScripts() {
        long app = application();
        Map<String, Object> body = new HashMap<>();
        body.put("name", "secret-tpl");
        body.put("description", "template");
        body.put("applicationId", app);
        body.put("processTypeId", INGESTION);
        long tpl = given().contentType(ContentType.JSON).body(body).post("/process-templates").then().statusCode(201)
                .extract().jsonPath().getLong("templateId");
        given().contentType(ContentType.JSON).body(Map.of("configGroup", "credential", "value", "pw"))
                .put("/process-templates/" + tpl + "/properties/pw").then().statusCode(422).body("code", equalTo(219));
        given().contentType(ContentType.JSON).body(Map.of("configGroup", "script", "value", "/tmp/x.sh"))
                .put("/process-templates/" + tpl + "/properties/script").then().statusCode(422).body("code", equalTo(218));
    }

    private static long newStep() {
        long app = application();
        return step(app, parent(app, INGESTION), SFTP);
    }

    private static io.restassured.response.ValidatableResponse put(long processId, String key, Map<String, Object> body) {
        return given().contentType(ContentType.JSON).body(body).put("/processes/" + processId + "/properties/" + key)
                .then().statusCode(200);
    }

    private record Stored(String value, byte[] ciphertext) {
    }

    private static Stored stored(long processId, String key) throws SQLException {
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement(
                "SELECT prop_value, prop_value_ct FROM property WHERE process_id = ? AND prop_key = ?")) {
            st.setLong(1, processId);
            st.setString(2, key);
            try (ResultSet rs = st.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return new Stored(rs.getString(1), rs.getBytes(2));
            }
        }
    }

    private static long count(String sql, String canary) throws SQLException {
        try (Connection c = connect(); PreparedStatement st = c.prepareStatement(sql)) {
            st.setString(1, "%" + canary + "%");
            st.setString(2, "%" + canary + "%");
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static Connection connect() throws SQLException {
        var db = BatchyardTestStack.database();
        return db.connect();
    }
}
