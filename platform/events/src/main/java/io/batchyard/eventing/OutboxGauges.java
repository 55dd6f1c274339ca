package io.batchyard.eventing;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * The outbox's backlog as gauges: how many rows wait to be published ({@code batchyard.outbox.backlog}) and how long the
 * oldest of them has waited ({@code batchyard.outbox.oldest.unpublished.seconds}). A scrape reads the last sample:
 * the statement runs every {@code batchyard.metrics.sample-interval} (5 s) whatever the scrape rate and however many
 * scrapers there are, and it reads only the unpublished rows' partial index. Every replica samples the same table,
 * so a dashboard takes the maximum over replicas, not the sum.
 *
 * <p>A sample that fails (the database is down) keeps the last values; the datasource's readiness check reports the
 * outage itself.
 */
@Startup
@ApplicationScoped
public class OutboxGauges {

    public static final String BACKLOG = "batchyard.outbox.backlog";
    public static final String OLDEST_UNPUBLISHED = "batchyard.outbox.oldest.unpublished.seconds";

    private static final Logger LOG = Logger.getLogger(OutboxGauges.class);

    private final Pool pool;
    private final OutboxRepository repository;
    private volatile long backlog;
    private volatile double oldestSeconds;

    public OutboxGauges(Pool pool, OutboxRepository repository, MeterRegistry meters) {
        this.pool = pool;
        this.repository = repository;
        Gauge.builder(BACKLOG, this, g -> g.backlog).description("Outbox rows not yet published")
                .strongReference(true).register(meters);
        Gauge.builder(OLDEST_UNPUBLISHED, this, g -> g.oldestSeconds)
                .description("Age of the oldest outbox row not yet published, 0 when none waits")
                .strongReference(true).register(meters);
    }

    @Scheduled(every = "${batchyard.metrics.sample-interval:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> sample() {
        return repository.backlog(pool)
                .invoke(sampled -> {
                    backlog = sampled.rows();
                    oldestSeconds = sampled.oldestSeconds();
                })
                .onFailure().invoke(e -> LOG.debugf("outbox backlog not sampled: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** Unpublished rows at the last sample (0 before the first). */
    public long backlog() {
        return backlog;
    }
}
