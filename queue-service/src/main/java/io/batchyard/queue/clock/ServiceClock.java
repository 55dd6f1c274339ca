package io.batchyard.queue.clock;

import io.batchyard.api.clock.MovableClock;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.config.SmallRyeConfig;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The one clock of queue-service's time-dependent rules: merge delays and retry backoffs, merge-job leases and their
 * recovery, end-of-day closing in a table's zone, the acceptance and mergeable-delay windows, garbage collection age.
 * SQL that decides by time takes {@link #now()} as a parameter instead of the database's now(); columns that only
 * record when something happened (created_at, closed_at, switched_at, quarantined_at, …) keep now().
 */
@Singleton
public class ServiceClock {

    private final MovableClock clock = new MovableClock();
    private final boolean movable;

    public ServiceClock(ClockConfig config) {
        this.movable = config.movable();
    }

    /** A movable clock in production would let an admin call bend every deadline: the service does not start. */
    void refuseInProduction(@Observes StartupEvent ignored) {
        if (movable && ConfigProvider.getConfig().unwrap(SmallRyeConfig.class).getProfiles().contains("prod")) {
            throw new IllegalStateException("batchyard.clock.movable=true is refused in the prod profile");
        }
    }

    public boolean movable() {
        return movable;
    }

    public MovableClock clock() {
        return clock;
    }

    /** Now, as a UTC timestamp for SQL parameters. */
    public OffsetDateTime now() {
        return OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    }

    public LocalDate today(ZoneId zone) {
        return LocalDate.ofInstant(clock.instant(), zone);
    }
}
