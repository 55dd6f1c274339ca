package io.batchyard.queue.lifecycle;

import io.batchyard.events.execution.JobHalted;
import io.batchyard.schemas.Events;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import org.apache.avro.specific.SpecificRecord;

/**
 * How long a job's output takes to reach its downstream queues: {@code batchyard.fanout.latency}, from the
 * {@code JobHalted} event's {@code occurredAt} (execution-service's HaltJob) to the commit of the queue rows its
 * fan-out created here, the outbox rows of their {@code BatchEnqueued} in the same commit. Only a first delivery that
 * enqueued something counts: a redelivery or a job nobody consumes moves no batch. The two clocks are different
 * machines' clocks, so a skew between them shifts every value (never below 0).
 */
@Startup
@ApplicationScoped
public class FanOutLatency {

    public static final String FANOUT_LATENCY = "batchyard.fanout.latency";

    private final Timer latency;

    public FanOutLatency(MeterRegistry meters) {
        this.latency = Timer.builder(FANOUT_LATENCY)
                .description("JobHalted's occurredAt to the commit of the downstream queue rows it created")
                .serviceLevelObjectives(Duration.ofMillis(10), Duration.ofMillis(25), Duration.ofMillis(50),
                        Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
                        Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30),
                        Duration.ofSeconds(60))
                .register(meters);
    }

    /** Called once {@code event}'s transaction committed. */
    void committed(SpecificRecord event, LifecycleService.Applied applied) {
        if (event instanceof JobHalted && applied.first() && applied.enqueued() > 0) {
            Duration since = Duration.between(Events.headerOf(event).getOccurredAt(), Instant.now());
            latency.record(since.isNegative() ? Duration.ZERO : since);
        }
    }
}
