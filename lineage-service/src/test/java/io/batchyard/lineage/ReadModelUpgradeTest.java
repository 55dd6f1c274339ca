package io.batchyard.lineage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.teststack.Infrastructure;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Properties;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.junit.jupiter.api.Test;

/**
 * A database migrated before this service kept the process read model (its own scripts up to V8) starts with the
 * read model's scripts, whose versions (0.x) are lower than the ones it applied: the service's Flyway settings take
 * them as they come instead of refusing to start.
 */
class ReadModelUpgradeTest {

    @Test
    void aDatabaseOfAnEarlierReleaseGainsTheReadModel() throws Exception {
        Infrastructure.Database db = Infrastructure.get().database("lineage_upgrade");
        flyway(db, "db/eventing,db/audit,db/migration", false).migrate();
        assertThat(tableExists(db, "lineage_query")).isTrue();
        assertThat(tableExists(db, "application_access")).isFalse();

        Properties service = new Properties();
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("application.properties")) {
            service.load(in);
        }
        String locations = service.getProperty("quarkus.flyway.locations");
        assertThat(locations).contains("db/readmodel");
        // Without taking scripts out of order, the database would be refused over the versions it never applied.
        assertThatThrownBy(() -> flyway(db, locations, false).migrate()).isInstanceOf(FlywayException.class);

        flyway(db, locations, Boolean.parseBoolean(service.getProperty("quarkus.flyway.out-of-order"))).migrate();
        assertThat(tableExists(db, "process_definition")).isTrue();
        assertThat(tableExists(db, "application_access")).isTrue();
        assertThat(flyway(db, locations, true).info().pending()).isEmpty();
    }

    private static Flyway flyway(Infrastructure.Database db, String locations, boolean outOfOrder) {
        return Flyway.configure().dataSource(db.jdbcUrl(), db.user(), db.password())
                .locations(Arrays.stream(locations.split(",")).map(l -> "classpath:" + l.strip())
                        .toArray(String[]::new))
                .outOfOrder(outOfOrder).load();
    }

    private static boolean tableExists(Infrastructure.Database db, String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             ResultSet rs = c.getMetaData().getTables(null, "public", table, null)) {
            return rs.next();
        }
    }
}
