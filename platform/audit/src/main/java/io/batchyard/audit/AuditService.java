package io.batchyard.audit;

import io.batchyard.api.Page;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/** Writes and reads the audit trail. */
@ApplicationScoped
public class AuditService {

    /** Calls that were refused before anyone was identified, counted instead of recorded, by HTTP status. */
    public static final String ANONYMOUS_REFUSALS = "batchyard.audit.anonymous.refusals";
    /** Entries of answered calls that found the queue full and were never recorded. */
    public static final String DROPPED = "batchyard.audit.dropped";

    private static final Logger LOG = Logger.getLogger(AuditService.class);

    /** At most this many entries per statement. */
    private static final int MAX_GROUP = 500;
    /** Under a flood of drops, one warning per this interval says how many went since the last one. */
    private static final Duration DROP_LOG_INTERVAL = Duration.ofMinutes(1);

    private final AuditRepository repository;
    private final MeterRegistry meters;
    private final int capacity;
    private final BlockingQueue<AuditEntry> pending;
    private final AtomicBoolean writing = new AtomicBoolean();
    private final Duration linger;
    private final Counter dropped;
    private final AtomicLong droppedSinceLog = new AtomicLong();
    private final AtomicLong lastDropLog = new AtomicLong();

    public AuditService(AuditRepository repository, MeterRegistry meters,
                        @ConfigProperty(name = "batchyard.audit.queue-size", defaultValue = "10000") int capacity,
                        @ConfigProperty(name = "batchyard.audit.linger", defaultValue = "PT0.1S") Duration linger) {
        if (capacity < 1) {
            throw new IllegalArgumentException("batchyard.audit.queue-size must be positive, got " + capacity);
        }
        if (linger.isNegative()) {
            throw new IllegalArgumentException("batchyard.audit.linger must not be negative, got " + linger);
        }
        this.linger = linger;
        this.repository = repository;
        this.meters = meters;
        this.capacity = capacity;
        this.pending = new LinkedBlockingQueue<>(capacity);
        this.dropped = Counter.builder(DROPPED)
                .description("Audit entries of answered calls not recorded because the write queue was full")
                .register(meters);
        // The common case exists from the start, at 0.
        anonymousRefusals("401");
    }

    /**
     * Records {@code entry} in the caller's transaction: a command's entry commits with its effect and its ledger row,
     * so a redelivered command is neither applied nor audited twice.
     */
    public Uni<Void> recordInTransaction(AuditEntry entry) {
        return repository.insert(entry);
    }

    /**
     * Records an HTTP call after its answer went out. Never fails the caller: a lost entry is logged, the answer
     * stands. Entries are written in groups, one statement (one transaction) per group: an entry that finds no write
     * in flight waits {@code batchyard.audit.linger} (100 ms) for the entries of the calls right behind it, otherwise
     * it waits for the write in flight and goes with everything that queued meanwhile. Nobody waits on the trail (the
     * answer went out), so a tenth of a second before an entry shows costs nothing, while a service answering a
     * hundred calls a second writes ten statements a second instead of a hundred.
     *
     * <p>A call nobody was identified for is a refusal (no operation answers an anonymous caller otherwise) and changed
     * nothing: it is counted by status instead of written, so that a flood of calls without a valid token costs
     * neither rows nor memory. What waits for the database is bounded ({@code batchyard.audit.queue-size}): when the
     * database falls that far behind, further entries are dropped and counted rather than held.
     */
    public void recordAfterAnswer(AuditEntry entry) {
        if (AuditEntry.ANONYMOUS.equals(entry.subject())) {
            anonymousRefusals(entry.outcome()).increment();
            return;
        }
        AuditEntry stamped = entry.occurredAt() != null ? entry : new AuditEntry(entry.id(), Instant.now(),
                entry.subject(), entry.channel(), entry.action(), entry.processId(), entry.outcome(),
                entry.problemCode(), entry.correlationId());
        if (!pending.offer(stamped)) {
            drop(stamped);
        }
        flush();
    }

    private Counter anonymousRefusals(String status) {
        return Counter.builder(ANONYMOUS_REFUSALS).tag("status", status)
                .description("State-changing calls refused before a caller was identified, counted instead of audited")
                .register(meters);
    }

    private void drop(AuditEntry entry) {
        dropped.increment();
        long since = droppedSinceLog.incrementAndGet();
        long now = System.currentTimeMillis();
        long last = lastDropLog.get();
        if (now - last >= DROP_LOG_INTERVAL.toMillis() && lastDropLog.compareAndSet(last, now)) {
            droppedSinceLog.addAndGet(-since);
            LOG.warnf("audit queue full (%d entries waiting for the database): %d entr%s not recorded since the last "
                    + "warning, the latest %s %s by %s -> %s", capacity, since, since == 1 ? "y" : "ies",
                    entry.channel(), entry.action(), entry.subject(), entry.outcome());
        }
    }

    /**
     * Starts a write of what is pending unless one is in flight; the one in flight starts the next when it ends. The
     * write lingers first, so the entries of the calls right behind this one join its statement.
     */
    private void flush() {
        if (!pending.isEmpty() && writing.compareAndSet(false, true)) {
            if (linger.isZero()) {
                write();
            } else {
                Uni.createFrom().voidItem().onItem().delayIt().by(linger).subscribe().with(ignored -> write());
            }
        }
    }

    /** Writes up to {@link #MAX_GROUP} pending entries in one statement; called only by the holder of the flag. */
    private void write() {
        List<AuditEntry> group = new ArrayList<>();
        pending.drainTo(group, MAX_GROUP);
        if (group.isEmpty()) {
            written();
            return;
        }
        repository.insertAll(group).subscribe().with(done -> written(), failure -> {
            LOG.warnf("%d audit entr%s not recorded (first: %s %s by %s -> %s): %s", group.size(),
                    group.size() == 1 ? "y" : "ies", group.get(0).channel(), group.get(0).action(),
                    group.get(0).subject(), group.get(0).outcome(), failure.getMessage());
            written();
        });
    }

    private void written() {
        writing.set(false);
        // An entry queued after the drain and before the flag was cleared found a write in flight: take it now.
        flush();
    }

    @WithSession
    public Uni<Page<AuditEntry>> list(AuditFilter filter, int limit, int offset) {
        return repository.list(filter, limit, offset).chain(items -> repository.count(filter)
                .map(total -> new Page<>(items, total, limit, offset)));
    }
}
