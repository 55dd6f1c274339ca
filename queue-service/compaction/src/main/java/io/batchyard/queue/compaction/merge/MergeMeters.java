package io.batchyard.queue.compaction.merge;

import io.micrometer.core.instrument.Counter;
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
 * Compaction's meters: the merge-job queue as a gauge, {@code batchyard.merge.jobs} by state (PENDING, ONGOING, DEAD;
 * a DEAD job is a parked partition waiting for an operator), sampled every {@code batchyard.metrics.sample-interval}
 * (5 s) and shared by every replica; and {@code batchyard.merged.bytes}, the bytes of merged objects this instance's
 * workers committed (a merge whose lease was lost wrote a file nobody uses and is not counted).
 */
@Startup
@ApplicationScoped
public class MergeMeters {

    public static final String MERGE_JOBS = "batchyard.merge.jobs";
    public static final String MERGED_BYTES = "batchyard.merged.bytes";

    private static final Logger LOG = Logger.getLogger(MergeMeters.class);

    private final MergeJobService jobs;
    private final Map<MergeJobState, AtomicLong> byState = new EnumMap<>(MergeJobState.class);
    private final Counter merged;

    public MergeMeters(MergeJobService jobs, MeterRegistry meters) {
        this.jobs = jobs;
        for (MergeJobState state : MergeJobState.values()) {
            byState.put(state, meters.gauge(MERGE_JOBS, Tags.of("state", state.name()), new AtomicLong()));
        }
        this.merged = Counter.builder(MERGED_BYTES).description("Bytes of merged objects committed by this instance")
                .register(meters);
    }

    @Scheduled(every = "${batchyard.metrics.sample-interval:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sample() {
        return jobs.countByState()
                .invoke(counts -> byState.forEach((state, count) -> count.set(counts.getOrDefault(state, 0L))))
                .onFailure().invoke(e -> LOG.debugf("merge jobs not sampled: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** A merged object of {@code bytes} committed. */
    void merged(long bytes) {
        merged.increment(bytes);
    }
}
