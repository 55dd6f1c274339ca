package io.batchyard.execution.backfill;

import io.batchyard.api.ApiException;
import io.batchyard.clients.queue.QueueImpact;
import io.batchyard.execution.ExecutionError;
import io.batchyard.persistence.Blocking;
import io.batchyard.schemas.backfill.ImpactRequest;
import io.batchyard.schemas.backfill.ImpactResult;
import io.batchyard.schemas.backfill.ReenqueueRequest;
import io.batchyard.schemas.backfill.Reenqueued;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * queue-service's impact walk, asked from a worker thread on the caller's context (its trace goes with the call). A
 * refusal comes back with the queue's code; no answer is a 503 (401), never a 500. The call's deadline, retries and
 * breaker are {@link QueueImpact}'s.
 */
@ApplicationScoped
public class ImpactClient {

    private final QueueImpact queue;

    public ImpactClient(QueueImpact queue) {
        this.queue = queue;
    }

    public Uni<ImpactResult> impact(ImpactRequest request) {
        return Blocking.blocking(() -> send(request));
    }

    /** Offers a batch again to the steps of a job for a backfill; 340 (nothing to offer) comes back as the queue's. */
    public Uni<Reenqueued> reenqueue(ReenqueueRequest request) {
        return Blocking.blocking(() -> {
            try {
                return queue.reenqueue(request);
            } catch (ApiException refused) {
                throw refused;
            } catch (RuntimeException e) {
                throw ExecutionError.QUEUE_UNAVAILABLE.exception("queue-service did not re-enqueue batch "
                        + request.batchId() + ": " + (e.getMessage() == null ? e.getClass().getSimpleName()
                        : e.getMessage()));
            }
        });
    }

    private ImpactResult send(ImpactRequest request) {
        ImpactResult answer;
        try {
            answer = queue.impact(request);
        } catch (ApiException refused) {
            throw refused;
        } catch (RuntimeException e) {
            throw ExecutionError.QUEUE_UNAVAILABLE.exception("queue-service gave no backfill impact: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        }
        if (answer == null || answer.units() == null || answer.fingerprint() == null) {
            throw ExecutionError.QUEUE_UNAVAILABLE.exception("unreadable backfill impact from queue-service");
        }
        return answer;
    }
}
