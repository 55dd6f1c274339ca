package io.batchyard.registry.application;

import io.batchyard.persistence.Blocking;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * At start-up, announces the applications whose permissions were never put on the registry topic (the seeded default
 * application on a new installation). Until they are, execution-service refuses non-administrators' lifecycle calls
 * for their processes, so a failure (database not up yet) is retried rather than left for the next restart.
 */
@ApplicationScoped
public class ApplicationAnnouncer {

    private static final Logger LOG = Logger.getLogger(ApplicationAnnouncer.class);
    private static final Duration RETRY = Duration.ofSeconds(10);

    private final ApplicationService applications;

    public ApplicationAnnouncer(ApplicationService applications) {
        this.applications = applications;
    }

    void onStart(@Observes StartupEvent started) {
        Infrastructure.getDefaultWorkerPool().execute(this::announceUntilDone);
    }

    private void announceUntilDone() {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                int count = Blocking.await(applications::announcePending);
                if (count > 0) {
                    LOG.infof("announced the permissions of %d application(s)", count);
                }
                return;
            } catch (RuntimeException e) {
                LOG.warnf("could not announce application permissions yet (%s); retrying in %s", e.getMessage(),
                        RETRY);
                try {
                    Thread.sleep(RETRY.toMillis());
                } catch (InterruptedException interrupted) {
                    return; // shutting down
                }
            }
        }
    }
}
