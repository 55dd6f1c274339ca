package io.batchyard.audit;

import io.batchyard.api.Page;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/** Writes and reads the audit trail. */
@ApplicationScoped
public class AuditService {

    private static final Logger LOG = Logger.getLogger(AuditService.class);

    private final AuditRepository repository;
    private final Vertx vertx;

    public AuditService(AuditRepository repository, Vertx vertx) {
        this.repository = repository;
        this.vertx = vertx;
    }

    /**
     * Records {@code entry} in the caller's transaction: a command's entry commits with its effect and its ledger row,
     * so a redelivered command is neither applied nor audited twice.
     */
    public Uni<Void> recordInTransaction(AuditEntry entry) {
        return repository.insert(entry);
    }

    /**
     * Records an HTTP call after its answer went out, in a transaction of its own on a fresh context (the request's
     * session is closed by then). Never fails the caller: a lost entry is logged, the answer stands.
     */
    public void recordAfterAnswer(AuditEntry entry) {
        Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        // A context of its own, isolated like a request's, is what Hibernate Reactive's sessions need.
        VertxContextSafetyToggle.setContextSafe(context, true);
        context.runOnContext(ignored -> Uni.createFrom().deferred(() -> Panache.withTransaction(
                        () -> repository.insert(entry)))
                .subscribe().with(done -> { }, failure -> LOG.warnf("audit entry not recorded (%s %s by %s -> %s): %s",
                        entry.channel(), entry.action(), entry.subject(), entry.outcome(), failure.getMessage())));
    }

    @WithSession
    public Uni<Page<AuditEntry>> list(AuditFilter filter, int limit, int offset) {
        return repository.list(filter, limit, offset).chain(items -> repository.count(filter)
                .map(total -> new Page<>(items, total, limit, offset)));
    }
}
