package io.batchyard.execution.clock;

import io.batchyard.api.clock.ClockControl;
import io.batchyard.execution.ExecutionError;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The one clock of execution-service's time-dependent rules: bucket periods (the runner's "now" in its zone), cron
 * schedules, retry back-offs of failed buckets, runner leases and their reaping, and /why's answers about them. SQL
 * that decides by time takes {@link #now()} as a parameter instead of the database's now(); columns that only record
 * when something happened (updated_at, start_ts, end_ts, add_ts) keep now(). A running command's timeout is measured
 * on the process's own monotonic time: moving the clock does not kill a command that is already running.
 */
@Singleton
public class ServiceClock extends ClockControl {

    public ServiceClock(@ConfigProperty(name = "batchyard.clock.movable", defaultValue = "false") boolean movable) {
        super(movable, ExecutionError.CLOCK_NOT_MOVABLE, ExecutionError.INVALID_CLOCK_SETTING);
    }

    void refuseInProduction(@Observes StartupEvent ignored) {
        refuseInProduction();
    }
}
