package io.batchyard.execution.runner;

import io.batchyard.api.ScriptNames;
import io.batchyard.execution.ExecutionError;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Runs the scripts the runner is configured with (steps, hooks, checks, bucket and loop scripts), all resolved the
 * same way. A configured script text is a name plus optional fixed arguments, e.g. {@code check_hours.sh --all}.
 */
@ApplicationScoped
public class ScriptRunner {

    private static final Logger LOG = Logger.getLogger(ScriptRunner.class);

    private final RunnerConfig config;
    private final JobUser user;
    private ScriptResolver resolver;
    private Path workDir;
    private JobFiles files;

    public ScriptRunner(RunnerConfig config, JobUser user) {
        this.config = config;
        this.user = user;
    }

    @PostConstruct
    void init() {
        Path cwd = Path.of("").toAbsolutePath();
        resolver = new ScriptResolver(config.scriptDir().map(Path::of).orElse(cwd.resolve("scripts")).toAbsolutePath());
        workDir = config.workDir().map(Path::of).orElse(cwd).toAbsolutePath();
        files = new JobFiles(workDir);
    }

    /** The directory every script resolves in. */
    public String scriptDirectory() {
        return resolver.toString();
    }

    public Path workDir() {
        return workDir;
    }

    /** The files a job definition names, confined to the work directory every command runs in. */
    public JobFiles files() {
        return files;
    }

    public int spillThreshold() {
        return config.spillThreshold();
    }

    /**
     * The command line of {@code script} with {@code args} appended, or empty when the script does not resolve.
     *
     * @throws ScriptResolver.Refused when the script names something outside the script directory
     */
    public Optional<List<String>> commandLine(String script, List<String> args) {
        ScriptNames.whyRefused(script).ifPresent(why -> {
            throw new ScriptResolver.Refused(ExecutionError.SCRIPT_NAME_REFUSED, why);
        });
        List<String> words = words(script);
        return resolver.resolve(words.get(0)).map(path -> {
            List<String> cmd = new ArrayList<>();
            cmd.add(path.toString());
            cmd.addAll(words.subList(1, words.size()));
            cmd.addAll(args);
            return cmd;
        });
    }

    /**
     * Refuses a script text the runner would never run; a name that is fine but absent is left to fail when run.
     *
     * @throws ScriptResolver.Refused with the problem code
     */
    public void check(String script) {
        commandLine(script, List.of());
    }

    /**
     * Whether the script is in the script directory.
     *
     * @throws ScriptResolver.Refused when the runner would not run the script (its name, or where it leads)
     */
    public boolean exists(String script) {
        return commandLine(script, List.of()).isPresent();
    }

    public CommandResult run(String script, List<String> args, Map<String, String> env, Duration timeout,
                             OsCommand.LineSink sink) {
        return run(script, args, args, env, timeout, sink);
    }

    /**
     * Runs {@code script} with {@code args}; the run output's {@code $ …} line shows {@code shown} in their place:
     * the arguments as the job defines them, where a word read from a file or printed by a script stands as the
     * placeholder of its source, so that a value such a source holds (a token, a password) never reaches the log.
     */
    public CommandResult run(String script, List<String> args, List<String> shown, Map<String, String> env,
                             Duration timeout, OsCommand.LineSink sink) {
        Optional<String> refused = user.refusal();
        if (refused.isPresent()) {
            sink.line("runner", "script '" + script + "' not run: " + refused.get());
            return CommandResult.notStarted(refused.get());
        }
        Optional<List<String>> cmd;
        try {
            cmd = commandLine(script, args);
        } catch (ScriptResolver.Refused e) {
            sink.line("runner", "script '" + script + "' refused: " + e.getMessage());
            return CommandResult.notStarted(e.getMessage());
        }
        if (cmd.isEmpty()) {
            String reason = "script '" + script + "' not found in the script directory " + resolver;
            sink.line("runner", reason);
            return CommandResult.notStarted(reason);
        }
        List<String> logged = new ArrayList<>(cmd.get().subList(0, cmd.get().size() - args.size()));
        logged.addAll(shown);
        sink.line("runner", "$ " + String.join(" ", logged));
        handOver(env.get("PIPEFILE"));
        CommandResult result = OsCommand.exec(user.command(cmd.get()),
                user.environment(OsCommand.jobEnvironment(System.getenv(), env)), workDir, null, timeout, sink);
        sink.line("runner", "ended: " + result.describe() + " after " + result.took().toMillis() + " ms");
        return result;
    }

    /** The job user reads the spilled PIPEINOUT file the runner wrote for it; nobody else does. */
    private void handOver(String pipeFile) {
        if (pipeFile == null || pipeFile.isEmpty() || user.decision().account().isEmpty()) {
            return;
        }
        JobUser.Account a = user.decision().account().get();
        try {
            Files.setAttribute(Path.of(pipeFile), "unix:uid", (int) a.uid());
            Files.setAttribute(Path.of(pipeFile), "unix:gid", (int) a.gid());
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warnf("could not hand %s to user %s: %s", pipeFile, a.name(), e.getMessage());
        }
    }

    /** As whom the job commands of this host run. */
    public JobUser.Decision jobUser() {
        return user.decision();
    }

    /** A helper script whose output is a value (bucket key, loop list, context): stdout trimmed, or empty on failure. */
    public Optional<String> valueOf(String script, List<String> args, Map<String, String> env, Duration timeout) {
        CommandResult r = run(script, args, env, timeout, (stream, line) -> LOG.debugf("[%s] %s: %s", script, stream, line));
        if (!r.succeeded()) {
            LOG.warnf("script %s failed (%s): %s", script, r.describe(), r.stderr().strip());
            return Optional.empty();
        }
        return Optional.of(r.stdout().trim());
    }

    static List<String> words(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        return Arrays.asList(text.trim().split("\\s+"));
    }

    @Override
    public String toString() {
        return "ScriptRunner[" + resolver + "]";
    }
}
