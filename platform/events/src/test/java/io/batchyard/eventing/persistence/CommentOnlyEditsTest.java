package io.batchyard.eventing.persistence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.eventing.persistence.CommentOnlyEdits.Edit;
import io.batchyard.teststack.Infrastructure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flyway against a real PostgreSQL: a database migrated with one wording of a script starts with another wording of it
 * only when that edit is listed with both checksums, and a listed edit never excuses a changed statement.
 */
class CommentOnlyEditsTest {

    private static final String SCRIPT = "V1__things.sql";
    private static final String FIRST =
            "-- Things, as the old notes called them.\nCREATE TABLE thing (id INT PRIMARY KEY);\n";
    private static final String REWORDED = "-- Things, said plainly.\nCREATE TABLE thing (id INT PRIMARY KEY);\n";
    private static final String CHANGED = "-- Things, said plainly.\nCREATE TABLE thing (id BIGINT PRIMARY KEY);\n";

    @TempDir
    Path migrations;

    private Infrastructure.Database db;

    @BeforeEach
    void migratedWithTheFirstWording() throws Exception {
        db = Infrastructure.get().database("comment_only_edits_" + System.nanoTime());
        write(FIRST);
        flyway(List.of()).load().migrate();
    }

    @Test
    void aListedRewordingStartsAndItsChecksumIsRecorded() throws Exception {
        int before = recordedChecksum();
        write(REWORDED);
        int after = fileChecksum();
        assertThat(after).isNotEqualTo(before);

        flyway(List.of(new Edit(SCRIPT, before, after))).load().migrate();

        assertThat(recordedChecksum()).isEqualTo(after);
        // Validation on its own, the next start, finds nothing to object to either.
        flyway(List.of()).load().validate();
    }

    @Test
    void anUnlistedRewordingStillStopsTheStart() throws Exception {
        int before = recordedChecksum();
        write(REWORDED);

        assertThatThrownBy(() -> flyway(List.of()).load().migrate()).isInstanceOf(FlywayException.class)
                .hasMessageContaining("checksum mismatch");
        assertThat(recordedChecksum()).isEqualTo(before);
    }

    @Test
    void aChangedStatementIsNotExcusedByTheRewordingsEntry() throws Exception {
        int before = recordedChecksum();
        write(REWORDED);
        int reworded = fileChecksum();
        write(CHANGED);

        assertThatThrownBy(() -> flyway(List.of(new Edit(SCRIPT, before, reworded))).load().migrate())
                .isInstanceOf(FlywayException.class).hasMessageContaining("checksum mismatch");
    }

    @Test
    void anEntryForAnotherChecksumChangesNothing() throws Exception {
        int before = recordedChecksum();
        write(REWORDED);

        assertThatThrownBy(() -> flyway(List.of(new Edit(SCRIPT, before + 1, fileChecksum()))).load().migrate())
                .isInstanceOf(FlywayException.class).hasMessageContaining("checksum mismatch");
        assertThat(recordedChecksum()).isEqualTo(before);
    }

    @Test
    void aNewDatabaseMigratesWithTheListInPlace() throws Exception {
        db = Infrastructure.get().database("comment_only_edits_new_" + System.nanoTime());
        write(REWORDED);

        flyway(List.of(new Edit(SCRIPT, 1, 2))).load().migrate();

        assertThat(recordedChecksum()).isEqualTo(fileChecksum());
    }

    @Test
    void theServicesSettingIsReadAsScriptAndTwoChecksums() {
        assertThat(Edit.parse(" V2__runner.sql:-1128233189:434008454 "))
                .isEqualTo(new Edit("V2__runner.sql", -1128233189, 434008454));
        assertThatThrownBy(() -> Edit.parse("V2__runner.sql:434008454")).isInstanceOf(IllegalArgumentException.class);

        // A service that lists nothing adds no callback; one that lists edits adds one, next to those already there.
        FluentConfiguration configuration = Flyway.configure();
        new CommentOnlyEdits(Optional.empty()).customize(configuration);
        assertThat(configuration.getCallbacks()).isEmpty();
        new CommentOnlyEdits(Optional.of(List.of("V2__runner.sql:1:2"))).customize(configuration);
        new CommentOnlyEdits(Optional.of(List.of("V8__runner_group_jobs.sql:3:4"))).customize(configuration);
        assertThat(configuration.getCallbacks()).hasSize(2);
    }

    @Test
    void theHistoryTableIsFoundInTheFirstManagedSchemaWhenNoDefaultIsNamed() throws Exception {
        db = Infrastructure.get().database("comment_only_edits_schema_" + System.nanoTime());
        write(FIRST);
        FluentConfiguration inSchema = flyway(List.of()).schemas("things");
        inSchema.load().migrate();
        int before = recordedChecksum("things.flyway_schema_history");
        write(REWORDED);
        int after = fileChecksum();

        FluentConfiguration withEdit = flyway(List.of()).schemas("things");
        CommentOnlyEdits.register(withEdit, List.of(new Edit(SCRIPT, before, after)));
        withEdit.load().migrate();

        assertThat(recordedChecksum("things.flyway_schema_history")).isEqualTo(after);
    }

    private FluentConfiguration flyway(List<Edit> edits) {
        FluentConfiguration configuration = Flyway.configure().dataSource(db.jdbcUrl(), db.user(), db.password())
                .locations("filesystem:" + migrations);
        CommentOnlyEdits.register(configuration, edits);
        return configuration;
    }

    /** The script sits in a folder below the location, as a service's db/migration does on its class path. */
    private void write(String text) throws Exception {
        Files.createDirectories(migrations.resolve("db/migration"));
        Files.writeString(migrations.resolve("db/migration").resolve(SCRIPT), text);
    }

    /** What Flyway computes for the file as it is now. */
    private int fileChecksum() {
        return flyway(List.of()).load().info().all()[0].getResolvedChecksum();
    }

    private int recordedChecksum() throws SQLException {
        return recordedChecksum("flyway_schema_history");
    }

    private int recordedChecksum(String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT checksum FROM " + table + " WHERE script = 'db/migration/"
                     + SCRIPT + "'")) {
            assertThat(r.next()).isTrue();
            return r.getInt(1);
        }
    }
}
