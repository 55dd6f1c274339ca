package io.batchyard.execution.runner;

import java.util.Optional;

/**
 * Where a step's command runs: {@code local} (a child process of this service, as an unprivileged user) or
 * {@code kubernetes} (a Job of its own on the cluster), chosen by {@code batchyard.runner.launcher}. Everything else
 * the runner decides (buckets, dependencies, loops, hooks, retries, {@code /why}) is the same for both: a launcher
 * only runs one command to its end and reports how it ended.
 */
public interface StepLauncher {

    String LOCAL = "local";
    String KUBERNETES = "kubernetes";

    /** The value of {@code batchyard.runner.launcher} that selects it. */
    String name();

    /**
     * Why no step can be launched now (the runner then claims nothing, and {@code /why} says this), or empty. Checked
     * at start, where a refusal is logged.
     */
    Optional<String> refusal();

    /**
     * Whether a step's script is taken from this service's script directory (local) rather than from where the
     * command runs (a Job's image): what a deployment of a stand-alone parent checks before it says the steps can run.
     */
    default boolean usesScriptDirectory() {
        return true;
    }

    /** Where and as whom steps run, in words, for the start log and {@code /why}. */
    String describe();

    /**
     * Runs one step command to its end, handing each output line to {@code sink} as it comes. Blocks: runs on the
     * runner's own threads, never on an event loop.
     */
    CommandResult run(StepLaunch launch, OsCommand.LineSink sink);
}
