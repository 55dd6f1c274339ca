package io.batchyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code import bdre}'s arguments and exit statuses before it reaches a registry (the import itself: deploy/e2e). */
class ImportBdreCommandTest {

    @AfterEach
    void restoreEnvironment() {
        Connection.environment = System::getenv;
    }

    @Test
    void theDatabaseUrlIsRequired() {
        assertThat(run("import", "bdre", "--dry-run").status).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void aPasswordVariableThatIsNotSetIsAUsageError() {
        Connection.environment = name -> name.equals("BATCHYARD_TOKEN") ? "t" : null;
        Run r = run("import", "bdre", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/bdre", "--password-env",
                "BDRE_PW_UNSET");
        assertThat(r.status).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err).contains("environment variable BDRE_PW_UNSET is not set");
    }

    @Test
    void aDatabaseThatDoesNotAnswerIsUnavailableAndNamesNoPassword() {
        Connection.environment = name -> switch (name) {
            case "BATCHYARD_TOKEN" -> "t";
            case "BDRE_PW" -> "pw-not-shown-4410";
            default -> null;
        };
        Run r = run("import", "bdre", "--jdbc-url", "jdbc:postgresql://127.0.0.1:1/bdre", "--user", "bdre",
                "--password-env", "BDRE_PW");
        assertThat(r.status).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(r.err).startsWith("import bdre: cannot read the BDRE database: ").doesNotContain("pw-not-shown-4410");
    }

    @Test
    void aMySqlUrlIsReadWithTheMariaDbDriver() {
        assertThat(ImportCommands.FromBdre.driverUrl("jdbc:mysql://db:3306/bdre?useSSL=false"))
                .isEqualTo("jdbc:mariadb://db:3306/bdre?useSSL=false");
        assertThat(ImportCommands.FromBdre.driverUrl("jdbc:postgresql://db/bdre")).isEqualTo("jdbc:postgresql://db/bdre");
    }

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... argv) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = new CommandLine(new BatchyardCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(argv);
        return new Run(status, out.toString(), err.toString());
    }
}
