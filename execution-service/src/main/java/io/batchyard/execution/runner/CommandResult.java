package io.batchyard.execution.runner;

import java.time.Duration;

/** How one OS process ended, with its captured output (stdout and stderr also went to the process log). */
public record CommandResult(int exitCode, boolean timedOut, String stdout, String stderr, Duration took) {

    public boolean succeeded() {
        return !timedOut && exitCode == 0;
    }

    public String describe() {
        return timedOut ? "killed after its timeout of " + took.toSeconds() + " s" : "exit code " + exitCode;
    }

    /** A command that never started (script not found, bad arguments): the reason stands in for stderr. */
    public static CommandResult notStarted(String reason) {
        return new CommandResult(-1, false, "", reason, Duration.ZERO);
    }
}
