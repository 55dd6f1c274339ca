package io.batchyard.dashboard.metrics;

import io.batchyard.schemas.Topics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Multi;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The dashboard's own meters: {@code batchyard.dashboard.stream.clients}, the pages' event streams open now;
 * {@code batchyard.dashboard.events} by topic, the records its view folded in; and
 * {@code batchyard.dashboard.events.dropped} by topic and reason, the records it read and left out of the view. Every
 * topic's series exist from the start, at 0, so that a rate over them is defined before the first record.
 */
@Startup
@ApplicationScoped
public class DashboardMeters {

    public static final String STREAM_CLIENTS = "batchyard.dashboard.stream.clients";
    public static final String EVENTS = "batchyard.dashboard.events";
    public static final String DROPPED = "batchyard.dashboard.events.dropped";
    /** The topics the view is built from. */
    public static final List<String> TOPICS = List.of(Topics.EXECUTION_LIFECYCLE, Topics.QUEUE_BATCHES,
            Topics.REGISTRY_PROCESSES, Topics.LINEAGE_PARSED);

    /** Why a record read from a topic is not in the view. */
    public enum Dropped {
        /** No event came out of it: bytes the schema registry's decoder refused, or an empty record. */
        UNDECODABLE,
        /** An event, but of a type the view does not show. */
        UNEXPECTED;

        String tag() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final AtomicInteger clients = new AtomicInteger();
    private final Map<String, Counter> applied = new HashMap<>();
    private final Map<String, Map<Dropped, Counter>> dropped = new HashMap<>();

    public DashboardMeters(MeterRegistry meters) {
        Gauge.builder(STREAM_CLIENTS, clients, AtomicInteger::get)
                .description("Event streams of the page open now").register(meters);
        for (String topic : TOPICS) {
            applied.put(topic, Counter.builder(EVENTS).tag("topic", topic)
                    .description("Events the dashboard's view applied, by topic").register(meters));
            Map<Dropped, Counter> reasons = new EnumMap<>(Dropped.class);
            for (Dropped reason : Dropped.values()) {
                reasons.put(reason, Counter.builder(DROPPED).tag("topic", topic).tag("reason", reason.tag())
                        .description("Records the dashboard read and left out of its view, by topic and reason")
                        .register(meters));
            }
            dropped.put(topic, reasons);
        }
    }

    /** One event of {@code topic} folded into the view. */
    public void applied(String topic) {
        applied.get(topic).increment();
    }

    /** One record of {@code topic} read and left out of the view. */
    public void dropped(String topic, Dropped reason) {
        dropped.get(topic).get(reason).increment();
    }

    /**
     * {@code stream}, counted among the open streams from its subscription until it ends: the page closed (the
     * connection's end cancels it), or it failed.
     */
    public <T> Multi<T> counted(Multi<T> stream) {
        return stream.onSubscription().invoke(clients::incrementAndGet)
                .onTermination().invoke(clients::decrementAndGet);
    }
}
