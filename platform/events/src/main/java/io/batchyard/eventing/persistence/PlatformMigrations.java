package io.batchyard.eventing.persistence;

import io.quarkus.arc.All;
import io.quarkus.flyway.FlywayConfigurationCustomizer;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.configuration.Configuration;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.jboss.logging.Logger;

/**
 * Runs the migrations of the platform modules a service includes, each module in a Flyway history of its own, just
 * before the service's own Flyway runs.
 *
 * <p>Quarkus builds the service's Flyway ({@code quarkus.flyway.locations}: the service's {@code db/migration} only)
 * at start, right before it validates and migrates with it. As a {@link FlywayConfigurationCustomizer} this runs at
 * that moment, on the same JDBC datasource and schemas: the platform's tables exist before the service's scripts and
 * everything else use the database, and a database migrated while the platform's scripts still ran in the service's
 * history has those rows moved out of it before the service's Flyway validates it.
 *
 * <p>For each module ({@link PlatformTables}), in order of name:
 * <ul>
 * <li>Its history does not exist yet, and the service's history records some of its scripts (as it did while the
 * platform's scripts ran with the service's): its history starts with a baseline at the newest of them. Each recorded
 * one must have succeeded with the checksum of today's script, and no older script of the module may be missing;
 * otherwise the service does not start, as Flyway would not.
 * <li>Its history does not exist yet, and nothing is recorded: its history starts at 0, and all its scripts apply.
 * <li>Its pending scripts are applied; then the module's rows leave the service's history, since the module's own
 * history records them.
 * </ul>
 * On a database without the service's history yet, the service's Flyway is set to start it with a baseline at 0
 * (below the service's V1): Flyway starts a history in a schema that already holds tables only with a baseline. An
 * advisory lock keeps replicas that start together from doing any of this twice.
 */
@ApplicationScoped
public class PlatformMigrations implements FlywayConfigurationCustomizer {

    private static final Logger LOG = Logger.getLogger(PlatformMigrations.class);

    /** The advisory lock held while the platform's histories are brought up to date ("batchyar"). */
    private static final long LOCK = 0x6261746368796172L;

    private static final MigrationVersion START = MigrationVersion.fromVersion("0");

    private final List<PlatformTables> modules;

    public PlatformMigrations(@All List<PlatformTables> modules) {
        this.modules = List.copyOf(modules);
    }

    @Override
    public void customize(FluentConfiguration service) {
        migrate(service, modules);
    }

    /**
     * Brings the tables of {@code modules} up to date in the database and schema of {@code service} (the service's
     * Flyway configuration, whose history is {@code service.getTable()}); on a database without that history yet,
     * {@code service} is set to start it with a baseline at 0.
     */
    public static void migrate(FluentConfiguration service, List<? extends PlatformTables> modules) {
        if (modules.isEmpty()) {
            return;
        }
        DataSource dataSource = service.getDataSource();
        try (Connection connection = dataSource.getConnection()) {
            Histories histories = new Histories(connection, schema(service));
            histories.lock();
            try {
                if (!histories.exists(service.getTable())) {
                    // Flyway starts a history in a schema that holds tables only with a baseline; 0 is below V1.
                    service.baselineOnMigrate(true).baselineVersion(START)
                            .baselineDescription("<< begun after the platform tables >>");
                }
                List<? extends PlatformTables> ordered = modules.stream()
                        .sorted(Comparator.comparing(PlatformTables::module)).toList();
                for (PlatformTables module : ordered) {
                    migrate(service, module, histories);
                }
            } finally {
                histories.unlock();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot bring the platform's tables up to date", e);
        }
    }

    private static void migrate(Configuration service, PlatformTables module, Histories histories)
            throws SQLException {
        FluentConfiguration configuration = configure(service, module.historyTable()).locations(module.location());
        Map<String, MigrationInfo> scripts = new HashMap<>();
        for (MigrationInfo info : configuration.load().info().all()) {
            if (info.getResolvedChecksum() != null) {
                scripts.put(fileName(info.getScript()), info);
            }
        }
        if (scripts.isEmpty()) {
            throw new IllegalStateException(module.location() + " holds no migrations: the " + module.module()
                    + " module's scripts are not on the class path");
        }
        String serviceHistory = service.getTable();
        List<Recorded> recorded = List.of();
        if (!histories.exists(module.historyTable())) {
            recorded = histories.recorded(serviceHistory, scripts.keySet());
            MigrationVersion start = recorded.isEmpty() ? START : takenOver(module, scripts, recorded, serviceHistory);
            configuration.baselineOnMigrate(true).baselineVersion(start).baselineDescription(recorded.isEmpty()
                    ? "<< " + module.module() + " history begins >>" : "<< applied in " + serviceHistory + " >>");
        }
        MigrateResult result = configuration.load().migrate();
        // Only once the module's history records them: a start that stops in between finds them there next time.
        histories.forget(serviceHistory, scripts.keySet());
        if (!recorded.isEmpty()) {
            LOG.infof("%s: the %d scripts %s recorded are recorded in %s now", module.module(), recorded.size(),
                    serviceHistory, module.historyTable());
        }
        if (result.migrationsExecuted > 0) {
            LOG.infof("%s: %d scripts applied, now at %s (%s)", module.module(), result.migrationsExecuted,
                    result.targetSchemaVersion, module.historyTable());
        }
    }

    /**
     * The version a module's history starts at when the service's history recorded its scripts: the newest recorded,
     * provided every recorded one is today's script, applied successfully, and none older is missing.
     */
    private static MigrationVersion takenOver(PlatformTables module, Map<String, MigrationInfo> scripts,
            List<Recorded> recorded, String serviceHistory) {
        MigrationVersion newest = START;
        for (Recorded row : recorded) {
            MigrationInfo script = scripts.get(row.script());
            if (!row.success()) {
                throw new IllegalStateException(serviceHistory + " records " + row.script()
                        + " as failed: repair the database before this release starts on it");
            }
            if (!Objects.equals(row.checksum(), script.getResolvedChecksum())) {
                throw new IllegalStateException(serviceHistory + " records " + row.script() + " with checksum "
                        + row.checksum() + ", but the " + module.module() + " module's script has "
                        + script.getResolvedChecksum() + ": released migrations never change");
            }
            if (script.getVersion().isNewerThan(newest)) {
                newest = script.getVersion();
            }
        }
        List<String> taken = recorded.stream().map(Recorded::script).toList();
        List<String> missing = new ArrayList<>();
        for (MigrationInfo script : scripts.values()) {
            if (!script.getVersion().isNewerThan(newest) && !taken.contains(script.getScript())) {
                missing.add(script.getScript());
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException(serviceHistory + " records " + module.module() + " scripts up to "
                    + newest + " but not " + missing + ": start the previous release once (it applies them), then"
                    + " this one");
        }
        return newest;
    }

    /** A Flyway over the service's datasource and schemas that keeps its history in {@code table}. */
    private static FluentConfiguration configure(Configuration service, String table) {
        FluentConfiguration configuration = Flyway.configure(service.getClassLoader())
                .dataSource(service.getDataSource()).table(table);
        if (service.getSchemas().length > 0) {
            configuration.schemas(service.getSchemas());
        }
        if (service.getDefaultSchema() != null) {
            configuration.defaultSchema(service.getDefaultSchema());
        }
        return configuration;
    }

    /**
     * The schema Flyway keeps the service's history in: its default schema, else the first of its schemas; null when
     * neither is named, as Flyway then uses the connection's current schema.
     */
    private static String schema(Configuration service) {
        if (service.getDefaultSchema() != null && !service.getDefaultSchema().isBlank()) {
            return service.getDefaultSchema();
        }
        return service.getSchemas().length > 0 ? service.getSchemas()[0] : null;
    }

    /** A script as a history records it. */
    private record Recorded(String script, Integer checksum, boolean success) {
    }

    /**
     * A script's file name. Quarkus records a script with its folder ({@code db/eventing/V0_1__x.sql}), Flyway on its
     * own with its path below the location ({@code V0_1__x.sql}); a platform script's file name is unique.
     */
    private static String fileName(String script) {
        return script.substring(script.lastIndexOf('/') + 1);
    }

    /** The history tables of one schema, read and changed over one connection. */
    private static final class Histories {

        /** {@link #fileName} of a history row's script, in SQL. */
        private static final String FILE_NAME = "regexp_replace(script, '^.*/', '')";

        private final Connection connection;
        private final String schema;

        Histories(Connection connection, String schema) {
            this.connection = connection;
            this.schema = schema;
        }

        void lock() throws SQLException {
            try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_lock(?)")) {
                lock.setLong(1, LOCK);
                lock.execute();
            }
        }

        void unlock() throws SQLException {
            try (PreparedStatement unlock = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
                unlock.setLong(1, LOCK);
                unlock.execute();
            }
        }

        boolean exists(String table) throws SQLException {
            try (PreparedStatement query = connection.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
                query.setString(1, qualified(table));
                try (ResultSet result = query.executeQuery()) {
                    return result.next() && result.getBoolean(1);
                }
            }
        }

        /** The rows of {@code history} that record any of {@code scripts}; none when the table does not exist. */
        List<Recorded> recorded(String history, Iterable<String> scripts) throws SQLException {
            List<Recorded> rows = new ArrayList<>();
            if (!exists(history)) {
                return rows;
            }
            try (PreparedStatement query = connection.prepareStatement("SELECT script, checksum, success FROM "
                    + qualified(history) + " WHERE " + FILE_NAME + " = ANY (?) ORDER BY installed_rank")) {
                query.setArray(1, array(scripts));
                try (ResultSet result = query.executeQuery()) {
                    while (result.next()) {
                        rows.add(new Recorded(fileName(result.getString("script")),
                                (Integer) result.getObject("checksum"), result.getBoolean("success")));
                    }
                }
            }
            return rows;
        }

        /** Removes the rows of {@code history} that record any of {@code scripts}. */
        void forget(String history, Iterable<String> scripts) throws SQLException {
            if (!exists(history)) {
                return;
            }
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM " + qualified(history) + " WHERE " + FILE_NAME + " = ANY (?)")) {
                delete.setArray(1, array(scripts));
                delete.executeUpdate();
            }
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        }

        private Array array(Iterable<String> values) throws SQLException {
            List<String> list = new ArrayList<>();
            values.forEach(list::add);
            return connection.createArrayOf("text", list.toArray());
        }

        private String qualified(String table) {
            return schema == null || schema.isBlank() ? quote(table) : quote(schema) + "." + quote(table);
        }

        private static String quote(String identifier) {
            return "\"" + identifier.replace("\"", "\"\"") + "\"";
        }
    }
}
