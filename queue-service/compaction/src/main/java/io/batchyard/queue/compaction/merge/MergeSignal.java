package io.batchyard.queue.compaction.merge;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * Wakes this instance's idle merge workers when a merge was made due now, so they do not sleep out their idle poll
 * first. Only a shortcut: workers of other instances still find the job at their next poll, through the database.
 */
@ApplicationScoped
public class MergeSignal {

    private long generation;

    /** The current generation, read before a claim: a wake-up after it ends the next {@link #await} at once. */
    public synchronized long generation() {
        return generation;
    }

    public synchronized void wake() {
        generation++;
        notifyAll();
    }

    /** Sleeps up to {@code timeout}, or until a wake-up later than {@code seen}. */
    public synchronized void await(long seen, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        for (long left = timeout.toMillis(); generation == seen && left > 0;
             left = (deadline - System.nanoTime()) / 1_000_000) {
            wait(left);
        }
    }
}
