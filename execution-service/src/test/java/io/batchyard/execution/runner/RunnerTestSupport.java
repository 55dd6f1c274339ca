package io.batchyard.execution.runner;

import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.Infrastructure;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDateTime;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** What every runner integration test uses: the launcher, script fixtures, and a fixed clock for bucket rules. */
abstract class RunnerTestSupport {

    /** A Friday morning; its daily bucket is 20240301. */
    static final LocalDateTime NOW = LocalDateTime.of(2024, 3, 1, 7, 30);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @ConfigProperty(name = "batchyard.runner.script-dir")
    String scriptDir;

    @Inject
    Launcher launcher;

    @Inject
    ScriptRunner scripts;

    RunnerFixtures f;

    @BeforeEach
    void openFixtures() {
        f = new RunnerFixtures(bootstrap, scriptDir);
    }

    @AfterEach
    void closeFixtures() {
        f.close();
    }

    /** Test setup straight in the database, over plain JDBC. */
    static void execute(String sql, Object... params) {
        Infrastructure.Database db = BatchyardTestStack.database();
        try (Connection c = db.connect();
             PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                statement.setObject(i + 1, params[i]);
            }
            statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** How a job definition names {@code file}: relative to the runner's work directory, the only place it reads. */
    String inWorkDir(Path file) {
        return scripts.workDir().relativize(file.toAbsolutePath()).toString();
    }
}
