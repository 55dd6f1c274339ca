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
        return started && !timedOut;
    }

    public String describe() {
        if (!started) {
            // a command that never ran has no exit code of its own: its reason (e.g. the script is missing) says why
            return "not started: " + stderr.strip();
        }
        return timedOut ? "killed after its timeout of " + took.toSeconds() + " s" : "exit code " + exitCode;
    }

    /** A command that never started (script not found, bad arguments): the reason stands in for stderr. */
    public static CommandResult notStarted(String reason) {
        return new CommandResult(-1, false, "", reason, Duration.ZERO, false);
    }
}
