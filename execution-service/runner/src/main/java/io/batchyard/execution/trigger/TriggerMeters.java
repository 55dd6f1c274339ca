package io.batchyard.execution.trigger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code batchyard.triggers} by outcome: every series exists from the start, at 0, so that a rate over them is
 * defined before the first trigger (a duplicate delivery is not a trigger and is not counted);
 * {@code batchyard.trigger.latency}, from the event of the input that made a run due to the run's start (InitJob done)
 * or the launcher hook's acceptance; {@code batchyard.trigger.runs.pending}, the PENDING trigger runs of every parent
 * as the last sweep counted them; {@code batchyard.trigger.timeouts}, buckets fired by their timeout.
 */
@Startup
@ApplicationScoped
public class TriggerMeters {

    public static final String TRIGGERS = "batchyard.triggers";
    public static final String LATENCY = "batchyard.trigger.latency";
    public static final String PENDING = "batchyard.trigger.runs.pending";
    public static final String TIMEOUTS = "batchyard.trigger.timeouts";

    private final Map<TriggerDecision.Outcome, Counter> counters = new EnumMap<>(TriggerDecision.Outcome.class);
    private final Timer latency;
    private final Counter timeouts;
    private final AtomicLong pending = new AtomicLong();

    public TriggerMeters(MeterRegistry meters) {
        for (TriggerDecision.Outcome outcome : TriggerDecision.Outcome.values()) {
            counters.put(outcome, Counter.builder(TRIGGERS).tag("outcome", outcome.tag())
                    .description("BatchEnqueued triggers of parents, by what they led to").register(meters));
        }
        latency = Timer.builder(LATENCY)
                .description("From the input event that made a trigger run due to the run's start")
                .serviceLevelObjectives(Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
                        Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10),
                        Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5))
                .register(meters);
        timeouts = Counter.builder(TIMEOUTS).description("Buckets whose timeout passed and that ran with what arrived")
                .register(meters);
        Gauge.builder(PENDING, pending, AtomicLong::get)
                .description("Trigger runs decided and not started yet (paused parents, runs waiting for the runner)")
                .register(meters);
    }

    void count(TriggerDecision.Outcome outcome) {
        counters.get(outcome).increment();
    }

    void latency(Instant event, Instant started) {
        Duration d = Duration.between(event, started);
        latency.record(d.isNegative() ? Duration.ZERO : d);
    }

    void timedOut(int buckets) {
        timeouts.increment(buckets);
    }

    void pending(long runs) {
        pending.set(runs);
    }
}
