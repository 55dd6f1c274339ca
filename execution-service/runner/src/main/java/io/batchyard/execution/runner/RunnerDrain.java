package io.batchyard.execution.runner;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Whether this runner is going away. Draining: it claims nothing new, and what runs goes on until the grace period
 * ends. Abandoned (the grace period ended first): its steps' processes were stopped and its leases expired, so another
 * replica takes the runs over, terminates them as orphans and resumes them from their last recoverable step; from then
 * on this runner records nothing more about them, or it would race the replica that resumes them.
 */
@ApplicationScoped
public class RunnerDrain {

    /** Thrown in a run's thread once the run was abandoned: it unwinds the run without recording anything. */
    public static final class Abandoned extends RuntimeException {
        Abandoned(long processId) {
            super("the run of process " + processId + " was left to another runner: this one is shutting down");
        }
    }

    private volatile boolean draining;
    private volatile boolean abandoned;

    public boolean draining() {
        return draining;
    }

    public boolean abandoned() {
        return abandoned;
    }

    public void startDraining() {
        draining = true;
    }

    void abandon() {
        draining = true;
        abandoned = true;
    }

    /** Back in service, after a drain that did not end the process (a test, or an operator's pause being lifted). */
    public void resume() {
        abandoned = false;
        draining = false;
    }

    /** Stops a run's thread at its next step boundary once the run was abandoned. */
    void checkNotAbandoned(long processId) {
        if (abandoned) {
            throw new Abandoned(processId);
        }
    }
}
