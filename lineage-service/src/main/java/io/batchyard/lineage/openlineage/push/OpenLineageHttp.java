package io.batchyard.lineage.openlineage.push;

import io.batchyard.eventing.InvalidEventException;
import io.batchyard.lineage.openlineage.OpenLineageSettings;
import io.smallrye.faulttolerance.api.AsynchronousNonBlocking;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * One delivery of a RunEvent to the HTTP backend, guarded: each call is bounded by {@code @Timeout}, a failure is
 * retried a few times with jittered delays, and a backend that keeps failing opens the circuit, so that the consumer
 * waits out an outage with its own backoff instead of hammering the backend. Runs on the caller's Vert.x context
 * (non-blocking), where the consumer's transaction lives.
 *
 * <p>A refusal of the event itself (400, 413, 422: the backend will never take it) is an
 * {@link InvalidEventException}: not retried, not counted against the circuit, and dead-lettered by the consumer.
 * Every other failure (no connection, a timeout, any other status) is the backend's and is retried.
 */
@ApplicationScoped
public class OpenLineageHttp {

    /** Statuses that refuse the event's content: sending it again can never succeed. */
    private static final Set<Integer> REFUSED = Set.of(400, 413, 422);

    private final OpenLineageApi api;
    private final OpenLineageSettings settings;

    public OpenLineageHttp(@RestClient OpenLineageApi api, OpenLineageSettings settings) {
        this.api = api;
        this.settings = settings;
    }

    /** Whether an HTTP backend is configured at all. */
    public boolean configured() {
        return settings.http().url().filter(u -> !u.isBlank()).isPresent();
    }

    @AsynchronousNonBlocking
    @Timeout(value = 10, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100, abortOn = InvalidEventException.class)
    @CircuitBreaker(requestVolumeThreshold = 10, failureRatio = 0.5, delay = 30, delayUnit = ChronoUnit.SECONDS,
            skipOn = InvalidEventException.class)
    public Uni<Void> post(String runEvent) {
        String authorization = settings.http().apiKey().filter(k -> !k.isBlank()).map(k -> "Bearer " + k).orElse(null);
        return api.post(authorization, runEvent).onFailure(WebApplicationException.class).transform(failure -> {
            int status = ((WebApplicationException) failure).getResponse().getStatus();
            return REFUSED.contains(status)
                    ? new InvalidEventException("the OpenLineage backend refused the event (HTTP " + status + ")")
                    : failure;
        });
    }
}
