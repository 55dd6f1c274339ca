package io.batchyard.execution.runner;

import java.time.Duration;

/**
 * How one OS process ended, with its captured output (stdout and stderr also went to the run output). {@code started}
 * is false for a command that never ran, whose exit code means nothing.
 */
public record CommandResult(int exitCode, boolean timedOut, String stdout, String stderr, Duration took,
                            boolean started) {

    public boolean succeeded() {
        return started && !timedOut && exitCode == 0;
    }

    /** Whether the process ran and ended on its own, so that {@link #exitCode} is the one it returned. */
    public boolean exited() {
        return started && !timedOut && exitCode >= 0;
    }

    public String describe() {
        if (!started) {
            // a command that never ran has no exit code of its own: its reason (e.g. the script is missing) says why
            return "not started: " + stderr.strip();
        }
        if (timedOut) {
            return "killed after its timeout of " + took.toSeconds() + " s";
        }
        return exitCode >= 0 ? "exit code " + exitCode : "ended without an exit code: " + stderr.strip();
    }

    /**
     * A command that started and was ended from outside with no exit code of its own (its pod was evicted or deleted,
     * its image could not be pulled): the reason stands in for stderr.
     */
    public static CommandResult lost(String reason, String stdout, Duration took) {
        return new CommandResult(-1, false, stdout, reason, took, true);
    }

    /** A command that never started (script not found, bad arguments): the reason stands in for stderr. */
    public static CommandResult notStarted(String reason) {
        return new CommandResult(-1, false, "", reason, Duration.ZERO, false);
    }
}
