package io.batchyard.lineage;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.audit.AuditTables;
import io.batchyard.eventing.persistence.EventingTables;
import io.batchyard.eventing.persistence.PlatformMigrations;
import io.batchyard.eventing.persistence.PlatformTables;
import io.batchyard.readmodel.ReadModelTables;
import io.batchyard.teststack.Infrastructure;
import java.io.InputStream;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.Test;

/**
 * Databases of earlier releases, which ran the platform's scripts in this service's history (taken out of order),
 * start with this one, which runs them in the platform modules' own histories: one from before this service kept the
 * process read model gains its tables, and one from the release before keeps every table and row; neither applies
 * a script twice.
 */
class PlatformUpgradeTest {

    private static final List<PlatformTables> MODULES =
            List.of(new EventingTables(), new AuditTables(), new ReadModelTables());

    @Test
    void aDatabaseFromBeforeTheReadModelGainsIt() throws Exception {
        Infrastructure.Database db = Infrastructure.get().database("lineage_upgrade_before_read_model");
        oldLayout(db, "db/eventing", "db/audit", "db/migration");
        assertThat(exists(db, "application_access")).isFalse();

        assertThat(start(db)).isZero();

        assertThat(exists(db, "process_definition")).isTrue();
        assertThat(exists(db, "application_access")).isTrue();
        assertThat(db.firstColumn("SELECT version FROM readmodel_schema_history WHERE type <> 'BASELINE'"))
                .containsExactly("0.2", "0.3", "0.4");
        assertThat(db.firstColumn("SELECT version FROM eventing_schema_history WHERE type = 'BASELINE'"))
                .containsExactly("0.9");
        assertThat(db.firstColumn("SELECT version FROM audit_schema_history WHERE type = 'BASELINE'"))
                .containsExactly("0.10");
        assertThat(serviceFlyway(db).load().info().pending()).isEmpty();
    }

    @Test
    void aDatabaseOfThePreviousReleaseKeepsItsTablesAndRows() throws Exception {
        Infrastructure.Database db = Infrastructure.get().database("lineage_upgrade_previous_release");
        oldLayout(db, "db/eventing", "db/audit", "db/readmodel", "db/migration");
        db.execute("INSERT INTO application_access (application_id, owner_permission, group_permission,"
                + " others_permission, source_occurred_at) VALUES (42, 7, 4, 0, now())");
        List<String> tables = tables(db);
        List<String> serviceScripts = db.firstColumn("SELECT script FROM flyway_schema_history"
                + " WHERE script LIKE 'db/migration/%' ORDER BY installed_rank");

        assertThat(start(db)).isZero();
        assertThat(start(db)).as("a second start").isZero();

        assertThat(tables(db)).containsAll(tables);
        assertThat(db.firstColumn("SELECT others_permission::text FROM application_access WHERE application_id = 42"))
                .containsExactly("0");
        assertThat(db.firstColumn("SELECT version FROM readmodel_schema_history WHERE type = 'BASELINE'"))
                .containsExactly("0.4");
        for (String history : List.of("eventing", "audit", "readmodel")) {
            assertThat(db.firstColumn("SELECT version FROM " + history + "_schema_history WHERE type <> 'BASELINE'"))
                    .as(history).isEmpty();
        }
        assertThat(db.firstColumn("SELECT script FROM flyway_schema_history ORDER BY installed_rank"))
                .containsExactlyElementsOf(serviceScripts);
        serviceFlyway(db).load().validate();
    }

    /** A start of this release: the platform modules' scripts, then the service's; how many of the latter applied. */
    private static int start(Infrastructure.Database db) throws Exception {
        FluentConfiguration service = serviceFlyway(db);
        PlatformMigrations.migrate(service, MODULES);
        return service.load().migrate().migrationsExecuted;
    }

    /** The service's Flyway with the locations its configuration names. */
    private static FluentConfiguration serviceFlyway(Infrastructure.Database db) throws Exception {
        Properties config = new Properties();
        ClassLoader loader = PlatformUpgradeTest.class.getClassLoader();
        try (InputStream in = loader.getResourceAsStream("application.properties")) {
            config.load(in);
        }
        String[] locations = Arrays.stream(config.getProperty("quarkus.flyway.locations").split(","))
                .map(l -> "classpath:" + l.strip()).toArray(String[]::new);
        assertThat(config.getProperty("quarkus.flyway.out-of-order")).isNull();
        return Flyway.configure().dataSource(db.jdbcUrl(), db.user(), db.password()).locations(locations);
    }

    /**
     * How earlier releases migrated: the platform's scripts and the service's in one history, out of order, each
     * recorded (as Quarkus does) with the folder it was found in.
     */
    private static void oldLayout(Infrastructure.Database db, String... locations) throws SQLException {
        Flyway.configure().dataSource(db.jdbcUrl(), db.user(), db.password())
                .locations(Arrays.stream(locations).map(l -> "classpath:" + l).toArray(String[]::new))
                .outOfOrder(true).load().migrate();
        db.execute("UPDATE flyway_schema_history SET script = CASE"
                + " WHEN version IN ('0.1', '0.6', '0.8', '0.9') THEN 'db/eventing/'"
                + " WHEN version IN ('0.7', '0.10') THEN 'db/audit/'"
                + " WHEN version IN ('0.2', '0.3', '0.4') THEN 'db/readmodel/' ELSE 'db/migration/' END || script");
    }

    private static List<String> tables(Infrastructure.Database db) throws SQLException {
        return db.firstColumn("SELECT tablename || ':' || ('public.' || tablename)::regclass::oid FROM pg_tables"
                + " WHERE schemaname = 'public' AND tablename NOT LIKE '%schema_history' ORDER BY tablename");
    }

    private static boolean exists(Infrastructure.Database db, String table) throws SQLException {
        return !db.firstColumn("SELECT 1 FROM pg_tables WHERE schemaname = 'public' AND tablename = '" + table + "'")
                .isEmpty();
    }
}
