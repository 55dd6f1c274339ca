package io.batchyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.client.ClientSettings;
import io.batchyard.client.ProblemException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command tree, settings and exit codes, without a server (the lifecycle against the stack: deploy/e2e). */
class BatchyardCommandTest {

    @AfterEach
    void restoreEnvironment() {
        Connection.environment = System::getenv;
    }

    @Test
    void everyCommandPrintsItsHelp() {
        List<CommandLine> all = new ArrayList<>();
        collect(new CommandLine(new BatchyardCommand()), all);
        assertThat(all).extracting(CommandLine::getCommandName).contains("init-job", "init-step", "halt-step",
                "term-step", "halt-job", "term-job", "register-file", "add", "last-value", "why", "export");
        for (CommandLine c : all) {
            List<String> argv = new ArrayList<>();
            for (CommandLine p = c; p.getParent() != null; p = p.getParent()) {
                argv.add(0, p.getCommandName());
            }
            argv.add("--help");
            Run r = run(argv.toArray(String[]::new));
            assertThat(r.status).as(String.join(" ", argv)).isZero();
            assertThat(r.out).as(String.join(" ", argv)).startsWith("Usage: batchyard")
                    .contains(c.getCommandSpec().qualifiedName(" "));
        }
        assertThat(run("--help").out).contains("11-24 lifecycle codes 101-114 (the code minus 90)");
    }

    @Test
    void badArgumentsAndMissingSettingsAreUsageErrors() {
        Connection.environment = name -> null;
        assertThat(run("init-job", "not-a-number").status).isEqualTo(ExitCodes.USAGE);
        assertThat(run("process-log").status).as("a group without its subcommand").isEqualTo(ExitCodes.USAGE);
        Run noToken = run("init-step", "12", "--config", "/nonexistent/batchyard.properties");
        assertThat(noToken.status).isEqualTo(ExitCodes.USAGE);
        assertThat(noToken.err).contains("config file /nonexistent/batchyard.properties not found");
    }

    @Test
    void flagsWinOverTheEnvironmentWhichWinsOverTheConfigFile(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("config.properties");
        Files.writeString(config, "batchyard.execution.url=http://file:1\nbatchyard.queue.url=http://file:2\n"
                + "batchyard.registry.url=http://file:3\nbatchyard.token=from-file\n");
        Connection.environment = Map.of("BATCHYARD_CONFIG", config.toString(),
                "BATCHYARD_QUEUE_URL", "http://env:2")::get;
        Connection c = new Connection();
        c.executionUrl = "http://flag:1";
        ClientSettings s = c.settings();
        assertThat(s.execution()).hasToString("http://flag:1");
        assertThat(s.queue()).hasToString("http://env:2");
        assertThat(s.registry()).hasToString("http://file:3");
        assertThat(s.tokens().token()).isEqualTo("from-file");
    }

    @Test
    void problemCodesMapToExitCodes() {
        assertThat(ExitCodes.of(new ProblemException(409, 104, "Parent Process is already running", null))).isEqualTo(14);
        assertThat(ExitCodes.of(new ProblemException(422, 101, null, null))).isEqualTo(11);
        assertThat(ExitCodes.of(new ProblemException(404, 114, null, null))).isEqualTo(24);
        assertThat(ExitCodes.of(new ProblemException(403, 14, null, null))).isEqualTo(ExitCodes.NOT_ALLOWED);
        assertThat(ExitCodes.of(new ProblemException(401, null, null, null))).isEqualTo(ExitCodes.NOT_ALLOWED);
        assertThat(ExitCodes.of(new ProblemException(503, null, "unreachable", null))).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(ExitCodes.of(new ProblemException(404, 412, null, null))).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(ExitCodes.of(new ProblemException(409, 301, null, null))).isEqualTo(ExitCodes.REFUSED);
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

    private static void collect(CommandLine c, List<CommandLine> into) {
        into.add(c);
        c.getSubcommands().values().forEach(s -> collect(s, into));
    }
}
