package io.batchyard.execution.backfill;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Backfills by state as a gauge, {@code batchyard.backfills}: sampled every {@code batchyard.metrics.sample-interval}
 * (5 s) from the table every replica shares, so a dashboard takes the maximum over replicas; a failed sample keeps the
 * last values. Their entries likewise, {@code batchyard.backfill.entries} by entry state, counting the entries of
 * backfills not ended (QUEUED, RUNNING, PAUSED): how far the live ones are. (How long plans take is
 * {@link BackfillService}'s timer {@code batchyard.backfill.plan}.)
 */
@Startup
@ApplicationScoped
public class BackfillMeters {

    public static final String BACKFILLS = "batchyard.backfills";
    public static final String ENTRIES = "batchyard.backfill.entries";

    private static final Logger LOG = Logger.getLogger(BackfillMeters.class);

    private final BackfillService backfills;
    private final Map<BackfillState, AtomicLong> counts = new EnumMap<>(BackfillState.class);
    private final Map<EntryState, AtomicLong> entries = new EnumMap<>(EntryState.class);

    public BackfillMeters(BackfillService backfills, MeterRegistry meters) {
        this.backfills = backfills;
        for (BackfillState state : BackfillState.values()) {
            counts.put(state, meters.gauge(BACKFILLS, Tags.of("state", state.name()), new AtomicLong()));
        }
        for (EntryState state : EntryState.values()) {
            entries.put(state, meters.gauge(ENTRIES, Tags.of("state", state.name()), new AtomicLong()));
        }
    }

    @Scheduled(every = "${batchyard.metrics.sample-interval:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sample() {
        return backfills.countByState()
                .invoke(byState -> counts.forEach((state, count) -> count.set(byState.getOrDefault(state, 0L))))
                .chain(backfills::countLiveEntriesByState)
                .invoke(byState -> entries.forEach((state, count) -> count.set(byState.getOrDefault(state, 0L))))
                .onFailure().invoke(e -> LOG.debugf("backfills not sampled: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
