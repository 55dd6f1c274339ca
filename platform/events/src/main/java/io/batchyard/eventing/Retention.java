package io.batchyard.eventing;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Keeps {@code outbox_event} and {@code processed_event} bounded: every {@code batchyard.retention.interval} (5 min),
 * published outbox rows and ledger rows older than {@code batchyard.retention.window} (P7D) are deleted, at most
 * {@code batchyard.retention.batch-size} (1000) rows per statement, each statement its own short transaction, until a
 * statement finds fewer. Without it both tables grow with every event for as long as the service lives.
 *
 * <p>What must never go: an unpublished outbox row (it matches no delete, however old: the relay still owes it to the
 * broker), and a ledger row a redelivery could still meet. A ledger row is what makes a redelivered event change
 * nothing, so the window has to be longer than any redelivery can be late: the topics' retention (Kafka's default is
 * the same 7 days) bounds a consumer rewound to the earliest offset. Published outbox rows are kept as long, as the
 * record of what was sent.
 *
 * <p>Several replicas may prune at once: each statement skips the rows another one has locked ({@code FOR UPDATE SKIP
 * LOCKED}), so they share the rows instead of waiting for each other, and a delete is idempotent anyway.
 *
 * <p>Other modules' tables go the same way ({@link RetainedTable}: the audit trail, with a window of its own): each
 * pass drains them after the outbox and the ledger, with the same batch size.
 */
@ApplicationScoped
public class Retention {

    private static final Logger LOG = Logger.getLogger(Retention.class);

    /** How many rows one pass deleted from each table; {@code otherRows} by {@link RetainedTable#table()}. */
    public record Pruned(long outboxRows, long ledgerRows, Map<String, Long> otherRows) {
    }

    private final Pool pool;
    private final OutboxRepository outbox;
    private final ProcessedEventRepository ledger;
    private final boolean enabled;
    private final Duration window;
    private final int batchSize;
    private final List<RetainedTable> others;

    @Inject
    public Retention(Pool pool, OutboxRepository outbox, ProcessedEventRepository ledger,
                     Instance<RetainedTable> others,
                     @ConfigProperty(name = "batchyard.retention.enabled", defaultValue = "true") boolean enabled,
                     @ConfigProperty(name = "batchyard.retention.window", defaultValue = "P7D") Duration window,
                     @ConfigProperty(name = "batchyard.retention.batch-size", defaultValue = "1000") int batchSize) {
        this(pool, outbox, ledger, enabled, window, batchSize, others.stream().toList());
    }

    public Retention(Pool pool, OutboxRepository outbox, ProcessedEventRepository ledger, boolean enabled,
                     Duration window, int batchSize, List<RetainedTable> others) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("batchyard.retention.window must be positive, got " + window);
        }
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchyard.retention.batch-size must be positive, got " + batchSize);
        }
        this.pool = pool;
        this.outbox = outbox;
        this.ledger = ledger;
        this.enabled = enabled;
        this.window = window;
        this.batchSize = batchSize;
        this.others = List.copyOf(others);
    }

    @Scheduled(every = "${batchyard.retention.interval:5m}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        if (!enabled) {
            return Uni.createFrom().voidItem();
        }
        return prune()
                .invoke(pruned -> {
                    if (pruned.outboxRows() > 0 || pruned.ledgerRows() > 0) {
                        LOG.debugf("retention: deleted %d published outbox row(s) and %d ledger row(s) older than %s",
                                pruned.outboxRows(), pruned.ledgerRows(), window);
                    }
                    pruned.otherRows().forEach((table, rows) -> {
                        if (rows > 0) {
                            LOG.debugf("retention: deleted %d %s row(s)", rows, table);
                        }
                    });
                })
                // The next interval tries again; rows only wait a little longer.
                .onFailure().invoke(e -> LOG.warnf("retention pass failed, the next one repeats it: %s", e.getMessage()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    /** One pass over every table, one after the other: batch after batch until a batch comes back short. */
    public Uni<Pruned> prune() {
        return drain(() -> outbox.deletePublishedBefore(pool, window, batchSize))
                .chain(outboxRows -> drain(() -> ledger.deleteProcessedBefore(pool, window, batchSize))
                        .chain(ledgerRows -> pruneOthers(0, new LinkedHashMap<>())
                                .map(otherRows -> new Pruned(outboxRows, ledgerRows, Map.copyOf(otherRows)))));
    }

    private Uni<Map<String, Long>> pruneOthers(int next, Map<String, Long> done) {
        if (next == others.size()) {
            return Uni.createFrom().item(done);
        }
        RetainedTable table = others.get(next);
        return drain(() -> table.deleteExpired(batchSize)).chain(rows -> {
            done.merge(table.table(), rows, Long::sum);
            return pruneOthers(next + 1, done);
        });
    }

    /** Repeats {@code batch} while it deletes a full batch; the total deleted. */
    private Uni<Long> drain(Supplier<Uni<Integer>> batch) {
        return Multi.createBy().repeating().<Integer>uni(batch::get).whilst(n -> n == batchSize)
                .collect().with(Collectors.summingLong(Integer::longValue));
    }
}
