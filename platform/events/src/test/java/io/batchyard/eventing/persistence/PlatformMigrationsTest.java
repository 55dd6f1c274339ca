package io.batchyard.eventing.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.teststack.Infrastructure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flyway against a real PostgreSQL: the eventing module's tables in a history of their own next to a service's
 * history, on a new database and on one migrated the old way (the platform's scripts in the service's history, taken
 * out of order), which keeps its tables and rows and applies nothing twice.
 */
class PlatformMigrationsTest {

    private static final List<PlatformTables> EVENTING = List.of(new EventingTables());

    @TempDir
    Path scripts;

    private Path service;

    private Infrastructure.Database db;

    @BeforeEach
    void aServiceWithOneScript() throws Exception {
        db = Infrastructure.get().database("platform_migrations_" + System.nanoTime());
        service = Files.createDirectories(scripts.resolve("service"));
        Files.writeString(service.resolve("V1__things.sql"), "CREATE TABLE thing (id INT PRIMARY KEY);\n");
    }

    @Test
    void aNewDatabaseGetsThePlatformTablesInTheirOwnHistory() throws Exception {
        start();

        assertThat(applied("eventing_schema_history")).containsExactly("0.1", "0.6", "0.8", "0.9");
        assertThat(applied("flyway_schema_history")).containsExactly("1");
        assertThat(count("SELECT count(*) FROM flyway_schema_history WHERE script LIKE 'V0_%'")).isZero();
        assertThat(exists("outbox_event")).isTrue();
        assertThat(exists("thing")).isTrue();

        // the next start finds nothing to do
        assertThat(start()).isZero();
        assertThat(applied("eventing_schema_history")).containsExactly("0.1", "0.6", "0.8", "0.9");
    }

    @Test
    void aDatabaseMigratedTheOldWayKeepsItsTablesAndRowsAndAppliesNothingTwice() throws Exception {
        oldLayout();
        UUID event = UUID.randomUUID();
        execute("INSERT INTO outbox_event (event_id, topic, record_key, event_type, payload) VALUES ('" + event
                + "', 't', 'k', 'Thing', '\\x00')");
        execute("INSERT INTO thing VALUES (7)");
        long outbox = oid("outbox_event");

        assertThat(start()).isZero();

        assertThat(oid("outbox_event")).as("not created again").isEqualTo(outbox);
        assertThat(count("SELECT count(*) FROM outbox_event WHERE event_id = '" + event + "'")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM thing")).isEqualTo(1);
        assertThat(baseline("eventing_schema_history")).isEqualTo("0.9");
        assertThat(applied("eventing_schema_history")).isEmpty();
        assertThat(applied("flyway_schema_history")).containsExactly("1");
        serviceFlyway().load().validate();

        assertThat(start()).isZero();
        assertThat(oid("outbox_event")).isEqualTo(outbox);
    }

    @Test
    void aDatabaseOfAnOlderReleaseGetsThePlatformScriptsItHadNot() throws Exception {
        oldLayout("V0_9__retention_indexes.sql");
        assertThat(index("outbox_event_published")).isFalse();

        start();

        assertThat(baseline("eventing_schema_history")).isEqualTo("0.8");
        assertThat(applied("eventing_schema_history")).containsExactly("0.9");
        assertThat(index("outbox_event_published")).isTrue();
        assertThat(applied("flyway_schema_history")).containsExactly("1");
    }

    @Test
    void aRecordedPlatformScriptThatDiffersFromTodaysStopsTheStart() throws Exception {
        oldLayout();
        execute("UPDATE flyway_schema_history SET checksum = checksum + 1 WHERE version = '0.6'");

        assertThatThrownBy(this::start).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("V0_6__outbox_notify.sql");
        assertThat(exists("eventing_schema_history")).isFalse();
    }

    @Test
    void aPlatformScriptMissingBelowTheNewestRecordedStopsTheStart() throws Exception {
        oldLayout();
        execute("DELETE FROM flyway_schema_history WHERE version = '0.8'");

        assertThatThrownBy(this::start).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("V0_8__outbox_traceparent.sql");
    }

    @Test
    void theHistoriesLiveInTheSchemaTheServiceNames() throws Exception {
        FluentConfiguration inSchema = serviceFlyway().schemas("things");
        PlatformMigrations.migrate(inSchema, EVENTING);
        inSchema.load().migrate();

        assertThat(exists("things.eventing_schema_history")).isTrue();
        assertThat(exists("things.outbox_event")).isTrue();
        assertThat(exists("things.thing")).isTrue();
        assertThat(exists("public.outbox_event")).isFalse();
    }

    /** A start of the service as it is now: the platform's tables, then the service's scripts; how many applied. */
    private int start() {
        FluentConfiguration configuration = serviceFlyway();
        PlatformMigrations.migrate(configuration, EVENTING);
        return configuration.load().migrate().migrationsExecuted;
    }

    /** The service's Flyway as Quarkus configures it now: its own scripts only. */
    private FluentConfiguration serviceFlyway() {
        return Flyway.configure().dataSource(db.jdbcUrl(), db.user(), db.password())
                .locations("filesystem:" + service);
    }

    /**
     * How releases before this one migrated: the platform's scripts and the service's in one history, taken out of
     * order, each recorded with its folder; {@code without} names eventing scripts that release did not have yet.
     */
    private void oldLayout(String... without) throws Exception {
        Path eventing = Files.createDirectories(scripts.resolve("eventing"));
        for (String script : List.of("V0_1__eventing_outbox_and_ledger.sql", "V0_6__outbox_notify.sql",
                "V0_8__outbox_traceparent.sql", "V0_9__retention_indexes.sql")) {
            if (!List.of(without).contains(script)) {
                try (var in = getClass().getResourceAsStream("/db/eventing/" + script)) {
                    Files.write(eventing.resolve(script), in.readAllBytes());
                }
            }
        }
        Flyway.configure().dataSource(db.jdbcUrl(), db.user(), db.password())
                .locations("filesystem:" + eventing, "filesystem:" + service).outOfOrder(true).load().migrate();
        // as the services' Quarkus recorded them: with the folder they were found in on the class path
        execute("UPDATE flyway_schema_history SET script = 'db/eventing/' || script WHERE script LIKE 'V0\\_%'");
    }

    private List<String> applied(String history) throws SQLException {
        List<String> versions = new ArrayList<>();
        try (Connection c = connection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT version FROM " + history
                     + " WHERE type <> 'BASELINE' AND success ORDER BY installed_rank")) {
            while (r.next()) {
                versions.add(r.getString(1));
            }
        }
        return versions;
    }

    private String baseline(String history) throws SQLException {
        try (Connection c = connection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT version FROM " + history + " WHERE type = 'BASELINE'")) {
            assertThat(r.next()).isTrue();
            return r.getString(1);
        }
    }

    private boolean exists(String table) throws SQLException {
        return count("SELECT count(*) FROM (SELECT to_regclass('" + table + "') AS t) x WHERE t IS NOT NULL") == 1;
    }

    private boolean index(String name) throws SQLException {
        return count("SELECT count(*) FROM pg_indexes WHERE indexname = '" + name + "'") == 1;
    }

    private long oid(String table) throws SQLException {
        return count("SELECT '" + table + "'::regclass::oid");
    }

    private long count(String sql) throws SQLException {
        try (Connection c = connection(); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            assertThat(r.next()).isTrue();
            return r.getLong(1);
        }
    }

    private void execute(String sql) {
        try (Connection c = connection(); Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private Connection connection() throws SQLException {
        return db.connect();
    }
}
