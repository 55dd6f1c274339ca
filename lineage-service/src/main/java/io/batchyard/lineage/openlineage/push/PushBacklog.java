package io.batchyard.lineage.openlineage.push;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * At start, before the service takes work, moves what an earlier release left in its own push outbox into the
 * platform outbox ({@link PushBacklogService}). A failure stops the start: the events would otherwise wait unseen.
 */
@ApplicationScoped
public class PushBacklog {

    private final PushBacklogService backlog;

    public PushBacklog(PushBacklogService backlog) {
        this.backlog = backlog;
    }

    void onStart(@Observes StartupEvent start) throws Throwable {
        VertxContextSupport.subscribeAndAwait(backlog::moveAll);
    }
}
