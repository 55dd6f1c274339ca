package io.batchyard.clients.queue;

import static java.time.temporal.ChronoUnit.MILLIS;
import static java.time.temporal.ChronoUnit.SECONDS;

import io.batchyard.clients.Failures;
import io.batchyard.clients.RemoteUnavailable;
import io.batchyard.clients.TransientFailure;
import io.batchyard.schemas.claim.ClaimRequest;
import io.batchyard.schemas.claim.ClaimResult;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * queue-service's claim, made safe to call: each attempt has a deadline, a transient failure (no connection, no
 * answer in time, 502/503/504) is tried again after a jittered pause, which the claim's idempotency per run makes
 * harmless, and a queue that keeps failing opens the breaker so that callers fail at once instead of waiting. A
 * refusal ({@link io.batchyard.api.ApiException}) is an answer: never retried, never counted against the breaker.
 *
 * <p>Blocking (the service token may have to be fetched): call it from a worker thread. Every setting can be changed
 * per deployment with MicroProfile Fault Tolerance's keys, e.g.
 * {@code io.batchyard.clients.queue.QueueClaims/claim/Timeout/value}.
 */
@ApplicationScoped
public class QueueClaims {

    private final QueueApi api;

    public QueueClaims(@RestClient QueueApi api) {
        this.api = api;
    }

    /**
     * The claim's answer; {@link io.batchyard.api.ApiException} for queue-service's refusal, {@link RemoteUnavailable}
     * (or the breaker's or the deadline's own exception) when there is none to be had.
     */
    @Timeout(value = 10, unit = SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100, delayUnit = MILLIS,
            retryOn = {TransientFailure.class, TimeoutException.class})
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = SECONDS,
            failOn = {RemoteUnavailable.class, TimeoutException.class})
    public ClaimResult claim(ClaimRequest request) {
        try {
            return api.claim(request);
        } catch (ProcessingException e) {
            throw Failures.of("queue-service", e);
        }
    }
}
