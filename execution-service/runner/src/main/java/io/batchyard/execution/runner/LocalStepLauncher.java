package io.batchyard.execution.runner;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/**
 * {@code batchyard.runner.launcher=local}: a step's command is a child process of this service, resolved in the
 * script directory and run in the work directory like every other script a job defines, as {@link JobUser} says.
 */
@ApplicationScoped
public class LocalStepLauncher implements StepLauncher {

    private final ScriptRunner scripts;

    public LocalStepLauncher(ScriptRunner scripts) {
        this.scripts = scripts;
    }

    @Override
    public String name() {
        return LOCAL;
    }

    @Override
    public Optional<String> refusal() {
        return scripts.jobUser().refusal();
    }

    @Override
    public String describe() {
        return "local child processes " + scripts.jobUser().describe();
    }

    @Override
    public CommandResult run(StepLaunch launch, OsCommand.LineSink sink) {
        return scripts.run(launch.script(), launch.args(), launch.shownArgs(), launch.env(), launch.timeout(), sink);
    }
}
