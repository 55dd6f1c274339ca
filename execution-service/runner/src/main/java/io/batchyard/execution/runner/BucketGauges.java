package io.batchyard.execution.runner;

import io.batchyard.execution.bucket.BucketStatus.State;
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
 * The runner's bucket ledgers as a gauge, {@code batchyard.runner.buckets} by status (INIT, RUNNING, COMPLETE, FAILED):
 * work waiting, running, done and failed over every stand-alone parent. Sampled every
 * {@code batchyard.metrics.sample-interval} (5 s) rather than on scrape; a sample that fails keeps the last values.
 * Every replica shares the ledger, so a dashboard takes the maximum over replicas.
 */
@Startup
@ApplicationScoped
public class BucketGauges {

    public static final String BUCKETS = "batchyard.runner.buckets";

    private static final Logger LOG = Logger.getLogger(BucketGauges.class);

    private final RunPolicyService policies;
    private final Map<State, AtomicLong> counts = new EnumMap<>(State.class);

    public BucketGauges(RunPolicyService policies, MeterRegistry meters) {
        this.policies = policies;
        for (State status : State.values()) {
            counts.put(status, meters.gauge(BUCKETS, Tags.of("status", status.name()), new AtomicLong()));
        }
    }

    @Scheduled(every = "${batchyard.metrics.sample-interval:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sample() {
        return policies.bucketsByStatus()
                .invoke(byStatus -> counts.forEach((status, count) -> count.set(byStatus.getOrDefault(status, 0L))))
                .onFailure().invoke(e -> LOG.debugf("runner buckets not sampled: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }
}
