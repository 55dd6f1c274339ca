package io.batchyard.audit;

import io.batchyard.eventing.RetainedTable;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Keeps {@code audit_entry} bounded: entries older than {@code batchyard.audit.retention} (P90D) go, through the same
 * pruning passes as the published outbox rows and the ledger rows ({@link io.batchyard.eventing.Retention}: its
 * interval, batch size and on/off switch). Without it the trail grows with every call for as long as the service lives.
 */
@ApplicationScoped
public class AuditRetention implements RetainedTable {

    private final AuditRepository repository;
    private final Duration window;

    public AuditRetention(AuditRepository repository,
                          @ConfigProperty(name = "batchyard.audit.retention", defaultValue = "P90D") Duration window) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("batchyard.audit.retention must be positive, got " + window);
        }
        this.repository = repository;
        this.window = window;
    }

    @Override
    public String table() {
        return "audit_entry";
    }

    @Override
    public Uni<Integer> deleteExpired(int limit) {
        return repository.deleteOlderThan(window, limit);
    }
}
