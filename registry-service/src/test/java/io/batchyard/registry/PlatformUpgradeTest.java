package io.batchyard.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.Infrastructure;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

/**
 * registry-service starts on a database that the release before this one migrated, with the platform's scripts in
 * the service's own history: the platform's rows move to the histories of the modules the service includes (eventing
 * and audit, not the read model), no table is created again, no row is lost, and the service works on it.
 */
@QuarkusTest
@WithTestResource(value = PlatformUpgradeTest.MigratedTheOldWay.class, scope = TestResourceScope.RESTRICTED_TO_CLASS)
class PlatformUpgradeTest {

    private static final String EVENT = "6d0c7b1e-3f0a-4c55-9d8e-1b2a3c4d5e6f";

    /** The test stack's database, migrated first as earlier releases did, with an outbox and an audit row in it. */
    public static class MigratedTheOldWay extends BatchyardTestStack {

        private static final String DATABASE = "registry_platform_upgrade";

        @Override
        public void init(Map<String, String> initArgs) {
            super.init(Map.of("database", DATABASE));
        }

        @Override
        public Map<String, String> start() {
            Infrastructure.Database db = Infrastructure.get().database(DATABASE);
            Flyway.configure().dataSource(db.jdbcUrl(), db.user(), db.password())
                    .locations("classpath:db/eventing", "classpath:db/audit", "classpath:db/migration")
                    .outOfOrder(true).load().migrate();
            try (Connection c = db.connect();
                 Statement s = c.createStatement()) {
                // Quarkus recorded each script with the folder it found it in on the class path
                s.execute("UPDATE flyway_schema_history SET script = CASE WHEN script LIKE 'V0\\_7%'"
                        + " OR script LIKE 'V0\\_10%' THEN 'db/audit/' WHEN script LIKE 'V0\\_%' THEN 'db/eventing/'"
                        + " ELSE 'db/migration/' END || script");
                s.execute("INSERT INTO outbox_event (event_id, topic, record_key, event_type, payload, published_at)"
                        + " VALUES ('" + EVENT + "', 'old', 'k', 'Old', '\\x00', now())");
                s.execute("INSERT INTO audit_entry (subject, channel, action, outcome)"
                        + " VALUES ('before-the-upgrade', 'HTTP', 'POST /applications', '201')");
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
            return super.start();
        }
    }

    @Test
    void thePlatformsRowsMoveToItsOwnHistoriesAndNothingIsLost() throws Exception {
        assertThat(rows("SELECT version FROM eventing_schema_history WHERE type = 'BASELINE'")).containsExactly("0.9");
        assertThat(rows("SELECT version FROM audit_schema_history WHERE type = 'BASELINE'")).containsExactly("0.10");
        assertThat(rows("SELECT version FROM eventing_schema_history WHERE type <> 'BASELINE'")).isEmpty();
        assertThat(rows("SELECT version FROM audit_schema_history WHERE type <> 'BASELINE'")).isEmpty();
        assertThat(rows("SELECT to_regclass('readmodel_schema_history')::text")).containsExactly((String) null);
        assertThat(rows("SELECT script FROM flyway_schema_history WHERE script LIKE '%V0\\_%'")).isEmpty();
        assertThat(rows("SELECT version FROM flyway_schema_history ORDER BY installed_rank"))
                .isNotEmpty().allMatch(v -> !v.startsWith("0."));
        assertThat(rows("SELECT topic FROM outbox_event WHERE event_id = '" + EVENT + "'")).containsExactly("old");
        assertThat(rows("SELECT action FROM audit_entry WHERE subject = 'before-the-upgrade'"))
                .containsExactly("POST /applications");
    }

    @Test
    void theServiceWritesItsOutboxAndAuditTrailOnTheUpgradedDatabase() throws Exception {
        int outbox = rows("SELECT event_id::text FROM outbox_event").size();

        Fixtures.application();

        assertThat(rows("SELECT event_id::text FROM outbox_event").size()).isGreaterThan(outbox);
    }

    private static List<String> rows(String sql) throws SQLException {
        Infrastructure.Database db = BatchyardTestStack.database();
        List<String> values = new ArrayList<>();
        try (Connection c = db.connect();
             Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                values.add(r.getString(1));
            }
        }
        return values;
    }
}
