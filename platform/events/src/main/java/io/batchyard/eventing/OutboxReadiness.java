package io.batchyard.eventing;

import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness half of "this service's events leave": its outbox relay's loop still turns, and the backlog of
 * unpublished rows is below {@code batchyard.outbox.ready-backlog} (10,000). A service whose relay hangs, or that writes
 * events much faster than they leave, should get no more traffic until it catches up; both recover on their own, so
 * this is readiness only and never makes an orchestrator restart the service.
 *
 * <p>Alive means the loop is waiting for a commit's notification (or, as a standby, for its next try at the lead), or
 * started or ended a pass less than {@code batchyard.outbox.ready-stall} (2 min) ago. A pass is bounded by
 * {@code batchyard.outbox.send-timeout} per step, so raise the stall with it. The backlog is the last sample of
 * {@link OutboxGauges}: a probe never queries the database. With the relay off ({@code batchyard.outbox.enabled=false})
 * the check is up and says so.
 */
@Readiness
@ApplicationScoped
public class OutboxReadiness implements HealthCheck {

    private final OutboxRelay relay;
    private final OutboxGauges gauges;
    private final long readyBacklog;
    private final Duration stall;

    OutboxReadiness(OutboxRelay relay, OutboxGauges gauges,
                    @ConfigProperty(name = "batchyard.outbox.ready-backlog", defaultValue = "10000") long readyBacklog,
                    @ConfigProperty(name = "batchyard.outbox.ready-stall", defaultValue = "PT2M") Duration stall) {
        this.relay = relay;
        this.gauges = gauges;
        this.readyBacklog = readyBacklog;
        this.stall = stall;
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("Outbox relay alive and backlog below threshold");
        if (!relay.enabled()) {
            return response.up().withData("relay", "disabled").build();
        }
        boolean alive = relay.alive(stall);
        long backlog = gauges.backlog();
        return response.status(alive && backlog < readyBacklog)
                .withData("relay", !alive ? "stalled" : relay.idle() ? "waiting" : "relaying")
                .withData("lastPassSecondsAgo", relay.sinceLastTurn().toSeconds())
                .withData("backlog", backlog)
                .withData("readyBacklog", readyBacklog)
                .build();
    }
}
