package io.batchyard.queue.clock;

import io.batchyard.api.clock.ClockControl;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

/**
 * The one clock of queue-service's time-dependent rules: merge delays and retry backoffs, merge-job leases and their
 * recovery, end-of-day closing in a table's zone, the acceptance and mergeable-delay windows, garbage collection age.
 * SQL that decides by time takes {@link #now()} as a parameter instead of the database's now(); columns that only
 * record when something happened (created_at, closed_at, switched_at, quarantined_at, …) keep now().
 */
@Singleton
public class ServiceClock extends ClockControl {

    public ServiceClock(ClockConfig config) {
        super(config.movable(), ClockError.CLOCK_NOT_MOVABLE, ClockError.INVALID_CLOCK_SETTING);
    }

    void refuseInProduction(@Observes StartupEvent ignored) {
        refuseInProduction();
    }
}
