package io.batchyard.audit;

import io.batchyard.api.Page;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/** Writes and reads the audit trail. */
@ApplicationScoped
public class AuditService {

    private static final Logger LOG = Logger.getLogger(AuditService.class);

    /** At most this many entries per statement. */
    private static final int MAX_GROUP = 500;

    private final AuditRepository repository;
    private final Queue<AuditEntry> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean();

    public AuditService(AuditRepository repository) {
        this.repository = repository;
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
     * stands. Entries are written in groups: when no write is in flight the entry is written at once, otherwise it
     * waits for the write in flight and goes with everything that queued meanwhile, in one statement (one
     * transaction). An idle service writes each entry alone and at once; a busy one writes one statement per group
     * instead of one transaction per call.
     */
    public void recordAfterAnswer(AuditEntry entry) {
        pending.add(entry.occurredAt() != null ? entry : new AuditEntry(entry.id(), Instant.now(), entry.subject(),
                entry.channel(), entry.action(), entry.processId(), entry.outcome(), entry.problemCode(),
                entry.correlationId()));
        flush();
    }

    /** Starts a write of what is pending unless one is in flight; the one in flight starts the next when it ends. */
    private void flush() {
        while (!pending.isEmpty() && writing.compareAndSet(false, true)) {
            List<AuditEntry> group = new ArrayList<>();
            AuditEntry next;
            while (group.size() < MAX_GROUP && (next = pending.poll()) != null) {
                group.add(next);
            }
            if (group.isEmpty()) {
                writing.set(false);
                continue;
            }
            repository.insertAll(group).subscribe().with(done -> written(), failure -> {
                LOG.warnf("%d audit entr%s not recorded (first: %s %s by %s -> %s): %s", group.size(),
                        group.size() == 1 ? "y" : "ies", group.get(0).channel(), group.get(0).action(),
                        group.get(0).subject(), group.get(0).outcome(), failure.getMessage());
                written();
            });
            return;
        }
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
