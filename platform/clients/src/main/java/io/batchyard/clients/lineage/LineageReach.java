package io.batchyard.clients.lineage;

import static java.time.temporal.ChronoUnit.MILLIS;
import static java.time.temporal.ChronoUnit.SECONDS;

import io.batchyard.clients.Failures;
import io.batchyard.clients.RemoteUnavailable;
import io.batchyard.clients.TransientFailure;
import io.batchyard.schemas.lineage.Reach;
import io.batchyard.schemas.lineage.ReachRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.ProcessingException;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * lineage-service's reach question, made safe to call: a deadline per attempt, transient failures tried again (the
 * call only reads, so a repeat is harmless), a breaker so that a lineage-service that is down is not waited for on
 * every preview. A refusal is an answer, never retried. Blocking: call it from a worker thread.
 */
@ApplicationScoped
public class LineageReach {

    private final LineageApi api;

    public LineageReach(@RestClient LineageApi api) {
        this.api = api;
    }

    @Timeout(value = 20, unit = SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100, delayUnit = MILLIS,
            retryOn = {TransientFailure.class, TimeoutException.class})
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 5, delayUnit = SECONDS,
            failOn = {RemoteUnavailable.class, TimeoutException.class})
    public Reach reach(ReachRequest request) {
        try {
            return api.reach(request);
        } catch (ProcessingException e) {
            throw Failures.of("lineage-service", e);
        }
    }
}
