package io.batchyard.clients.queue;

import static java.time.temporal.ChronoUnit.MILLIS;
import static java.time.temporal.ChronoUnit.SECONDS;

import io.batchyard.clients.Failures;
import io.batchyard.clients.RemoteUnavailable;
import io.batchyard.clients.TransientFailure;
import io.batchyard.schemas.backfill.ImpactRequest;
import io.batchyard.schemas.backfill.ImpactResult;
import io.batchyard.schemas.backfill.ReenqueueRequest;
import io.batchyard.schemas.backfill.Reenqueued;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * queue-service's impact question, made safe to call as {@link QueueClaims} makes the claim: a deadline per attempt,
 * transient failures tried again (the call only reads, so a repeat is harmless), a breaker of its own so that a slow
 * walk never opens the claim's. A refusal is an answer, never retried. Blocking: call it from a worker thread.
 */
@ApplicationScoped
public class QueueImpact {

    private final QueueBackfillApi api;

    public QueueImpact(@RestClient QueueBackfillApi api) {
        this.api = api;
    }

    @Timeout(value = 30, unit = SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100, delayUnit = MILLIS,
            retryOn = {TransientFailure.class, TimeoutException.class})
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = SECONDS,
            failOn = {RemoteUnavailable.class, TimeoutException.class})
    public ImpactResult impact(ImpactRequest request) {
        try {
            return api.impact(request);
        } catch (ProcessingException e) {
            throw Failures.of("queue-service", e);
        }
    }

    /**
     * A backfill's offer of a batch to the steps of a job. Idempotent per backfill, batch and step, so a repeat after
     * a lost answer is harmless and transient failures are tried again; a refusal (340: nothing to offer) is an
     * answer.
     */
    @Timeout(value = 10, unit = SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100, delayUnit = MILLIS,
            retryOn = {TransientFailure.class, TimeoutException.class})
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = SECONDS,
            failOn = {RemoteUnavailable.class, TimeoutException.class})
    public Reenqueued reenqueue(ReenqueueRequest request) {
        try {
            return api.reenqueue(request);
        } catch (ProcessingException e) {
            throw Failures.of("queue-service", e);
        }
    }
}
