package io.batchyard.execution.runner;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The launcher {@code batchyard.runner.launcher} names. An unknown name refuses every launch (and says which names
 * exist) rather than falling back to another: a platform that asked for Kubernetes must not run jobs in its own pod.
 */
@ApplicationScoped
public class StepLaunchers {

    private static final Logger LOG = Logger.getLogger(StepLaunchers.class);

    private final RunnerConfig config;
    /** The launcher the setting names, if one does: the setting is read once, at start. */
    private final Optional<StepLauncher> chosen;
    private final List<String> names;

    public StepLaunchers(Instance<StepLauncher> all, RunnerConfig config) {
        this.config = config;
        this.chosen = all.stream().filter(l -> l.name().equals(config.launcher())).findFirst();
        this.names = all.stream().map(StepLauncher::name).sorted().toList();
    }

    void announce(@Observes StartupEvent ignored) {
        if (chosen.isEmpty()) {
            LOG.errorf("no step is launched: %s", refusal().orElseThrow());
            return;
        }
        chosen.get().refusal().ifPresentOrElse(
                why -> LOG.warnf("launcher %s launches no step: %s", chosen.get().name(), why),
                () -> LOG.infof("steps run through launcher %s: %s", chosen.get().name(), chosen.get().describe()));
    }

    /** Why no step can be launched now, or empty. */
    public Optional<String> refusal() {
        if (chosen.isEmpty()) {
            return Optional.of("batchyard.runner.launcher is '" + config.launcher() + "'; the launchers are " + names);
        }
        return chosen.get().refusal();
    }

    /** Whether step scripts come from this service's script directory (see {@link StepLauncher#usesScriptDirectory}). */
    public boolean stepScriptsInScriptDirectory() {
        return chosen.map(StepLauncher::usesScriptDirectory).orElse(true);
    }

    /** Where and as whom steps run, for {@code /why}. */
    public String describe() {
        return chosen.map(l -> l.name() + ": " + l.describe()).orElse("none: " + refusal().orElse(""));
    }

    /** Runs a step's command through the chosen launcher; refused when there is none. */
    public CommandResult run(StepLaunch launch, OsCommand.LineSink sink) {
        Optional<String> refused = refusal();
        if (refused.isPresent()) {
            sink.line("runner", "step " + launch.stepId() + " not launched: " + refused.get());
            return CommandResult.notStarted(refused.get());
        }
        return chosen.get().run(launch, sink);
    }
}
