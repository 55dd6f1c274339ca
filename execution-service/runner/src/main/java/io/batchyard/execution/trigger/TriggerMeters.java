package io.batchyard.execution.trigger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Map;

/**
 * {@code batchyard.triggers} by outcome: every series exists from the start, at 0, so that a rate over them is
 * defined before the first trigger. A duplicate delivery is not a trigger and is not counted.
 */
@Startup
@ApplicationScoped
public class TriggerMeters {

    public static final String TRIGGERS = "batchyard.triggers";

    private final Map<TriggerService.Outcome, Counter> counters = new EnumMap<>(TriggerService.Outcome.class);

    public TriggerMeters(MeterRegistry meters) {
        for (TriggerService.Outcome outcome : TriggerService.Outcome.values()) {
            counters.put(outcome, Counter.builder(TRIGGERS).tag("outcome", outcome.tag())
                    .description("BatchEnqueued triggers of parents, by what they led to").register(meters));
        }
    }

    void count(TriggerService.Outcome outcome) {
        counters.get(outcome).increment();
    }
}
