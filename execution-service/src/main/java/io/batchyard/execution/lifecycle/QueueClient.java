package io.batchyard.execution.lifecycle;

import io.batchyard.api.ApiException;
import io.batchyard.clients.queue.QueueClaims;
import io.batchyard.execution.ExecutionError;
import io.batchyard.persistence.Blocking;
import io.batchyard.schemas.claim.ClaimRequest;
import io.batchyard.schemas.claim.ClaimResult;
import io.batchyard.schemas.claim.ClaimedRow;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * queue-service's claim API: InitJob's output needs the claimed batches at once, so this one call is synchronous.
 * A refusal comes back as the queue's own code (101, 102, 109, 112); an unreachable queue is a 503, never a 500. The
 * call itself (deadline, retries of transient failures, circuit breaker, this service's token, the trace) is
 * {@link QueueClaims}'.
 *
 * <p>Each claim queue-service granted is timed ({@code batchyard.claim.latency}), from the request to the answer: what
 * InitJob waits for, the queue's whole transaction, the network and any retry included.
 */
@ApplicationScoped
public class QueueClient {

    public static final String CLAIM_LATENCY = "batchyard.claim.latency";

    /** What queue-service claimed for a starting run. */
    public record Claim(long targetBatchId, boolean retry, List<InitJobOutput.ClaimedRow> rows) {
    }

    private final QueueClaims queue;
    private final Timer claims;

    public QueueClient(QueueClaims queue, MeterRegistry meters) {
        this.queue = queue;
        this.claims = Timer.builder(CLAIM_LATENCY)
                .description("InitJob's claim of its input batches at queue-service, request to answer")
                .serviceLevelObjectives(Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
                        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
                        Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10))
                .register(meters);
    }

    /**
     * The claim, sent from a worker thread on the caller's context (its trace goes with the call); the caller's
     * transaction resumes on that context with the answer.
     */
    public Uni<Claim> claim(long parentId, long instanceExecId, Integer maxBatch, Long completedTargetBatchId,
                            List<Long> sourceBatchIds, UUID backfillId) {
        ClaimRequest request = new ClaimRequest(parentId, instanceExecId, maxBatch, completedTargetBatchId,
                sourceBatchIds, backfillId);
        return Blocking.blocking(() -> send(request));
    }

    private Claim send(ClaimRequest request) {
        long started = System.nanoTime();
        ClaimResult answer;
        try {
            answer = queue.claim(request);
        } catch (ApiException refused) {
            throw refused;
        } catch (RuntimeException e) {
            // no connection, no answer in time, a 5xx, an unreadable answer, a refused service identity, an open
            // breaker
            throw ExecutionError.QUEUE_UNAVAILABLE.exception("queue-service gave no claim: " + reason(e));
        }
        if (answer == null || answer.rows() == null) {
            throw ExecutionError.QUEUE_UNAVAILABLE.exception("unreadable answer from queue-service");
        }
        List<InitJobOutput.ClaimedRow> rows = answer.rows().stream().map(r -> row(r, answer.targetBatchId())).toList();
        claims.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
        return new Claim(answer.targetBatchId(), answer.retry(), rows);
    }

    /** A row without its own target batch (an older queue-service) belongs to the claim's. */
    private static InitJobOutput.ClaimedRow row(ClaimedRow r, long targetBatchId) {
        return new InitJobOutput.ClaimedRow(r.queueId(), r.processId(), r.sourceBatchId(),
                r.targetBatchId() != null ? r.targetBatchId() : targetBatchId, r.batchMarking(), r.sourceProcessId(),
                r.sourceInstanceExecId(), r.fileList(), r.batchList());
    }

    private static String reason(RuntimeException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
