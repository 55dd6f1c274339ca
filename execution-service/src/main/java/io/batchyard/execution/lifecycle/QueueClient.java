package io.batchyard.execution.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.api.ApiException;
import io.batchyard.api.ServiceIdentity;
import io.batchyard.execution.ExecutionError;
import io.batchyard.persistence.Blocking;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * queue-service's claim API: InitJob's output needs the claimed batches at once, so this one call is synchronous.
 * A refusal comes back as the queue's own code (101, 102, 109, 112); an unreachable queue is a 503, never a 500.
 *
 * <p>Each claim queue-service granted is timed ({@code batchyard.claim.latency}), from the request to the answer: what
 * InitJob waits for, the queue's whole transaction and the network included.
 */
@ApplicationScoped
public class QueueClient {

    private static final Logger LOG = Logger.getLogger(QueueClient.class);
    public static final String CLAIM_LATENCY = "batchyard.claim.latency";

    /** What queue-service claimed for a starting run. */
    public record Claim(long targetBatchId, boolean retry, List<InitJobOutput.ClaimedRow> rows) {
    }

    private final ObjectMapper json;
    private final ServiceIdentity identity;
    private final String queueUrl;
    private final Duration timeout;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
    private final Timer claims;

    public QueueClient(ObjectMapper json, ServiceIdentity identity, MeterRegistry meters,
                       @ConfigProperty(name = "batchyard.queue.url") String queueUrl,
                       @ConfigProperty(name = "batchyard.queue.timeout", defaultValue = "PT10S") Duration timeout) {
        this.json = json;
        this.identity = identity;
        this.queueUrl = queueUrl;
        this.timeout = timeout;
        this.claims = Timer.builder(CLAIM_LATENCY)
                .description("InitJob's claim of its input batches at queue-service, request to answer")
                .serviceLevelObjectives(Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
                        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
                        Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10))
                .register(meters);
    }

    /** The claim, sent from a worker thread; the caller's transaction resumes on its own context with the answer. */
    public Uni<Claim> claim(long parentId, long instanceExecId, Integer maxBatch, Long completedTargetBatchId) {
        return Blocking.blocking(() -> send(parentId, instanceExecId, maxBatch, completedTargetBatchId));
    }

    private Claim send(long parentId, long instanceExecId, Integer maxBatch, Long completedTargetBatchId) {
        Map<String, Object> body = new HashMap<>();
        body.put("parentProcessId", parentId);
        body.put("instanceExecId", instanceExecId);
        body.put("maxBatch", maxBatch);
        body.put("completedTargetBatchId", completedTargetBatchId);
        HttpResponse<String> response;
        long started = System.nanoTime();
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(queueUrl + "/internal/claims"))
                    .timeout(timeout).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body)));
            identity.authorization().ifPresent(value -> request.header("Authorization", value));
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw ExecutionError.QUEUE_UNAVAILABLE.exception("queue-service at " + queueUrl + " did not answer: "
                    + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ExecutionError.QUEUE_UNAVAILABLE.exception("interrupted while claiming batches");
        }
        try {
            JsonNode node = json.readTree(response.body());
            if (response.statusCode() == 401 || response.statusCode() == 403) {
                // Not the caller's fault and not fixed by the caller: this service's own identity is missing or lacks
                // the service role. Operators see it in the log; callers get a retryable answer.
                LOG.errorf("queue-service refused execution-service's claim with %d: check its service identity"
                        + " (quarkus.oidc-client.* or batchyard.service.token)",
                        response.statusCode());
                throw ExecutionError.QUEUE_UNAVAILABLE.exception("queue-service refused this service's identity");
            }
            if (response.statusCode() != 200) {
                if (node.hasNonNull("code") && response.statusCode() < 500) {
                    throw new ApiException(response.statusCode(), node.get("code").asInt(), node.path("title").asText(),
                            node.path("detail").asText());
                }
                throw ExecutionError.QUEUE_UNAVAILABLE.exception("queue-service answered " + response.statusCode());
            }
            long targetBatchId = node.get("targetBatchId").asLong();
            List<InitJobOutput.ClaimedRow> rows = new ArrayList<>();
            for (JsonNode r : node.get("rows")) {
                // queueId and sourceProcessId came later than the other fields: absent, they are null.
                rows.add(new InitJobOutput.ClaimedRow(longOrNull(r, "queueId"), r.get("processId").asLong(),
                        r.get("sourceBatchId").asLong(), r.hasNonNull("targetBatchId") ? r.get("targetBatchId").asLong()
                        : targetBatchId, text(r, "batchMarking"), longOrNull(r, "sourceProcessId"),
                        longOrNull(r, "sourceInstanceExecId"), text(r, "fileList"), text(r, "batchList")));
            }
            Claim claim = new Claim(targetBatchId, node.get("retry").asBoolean(), rows);
            claims.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
            return claim;
        } catch (IOException | RuntimeException e) {
            if (e instanceof ApiException api) {
                throw api;
            }
            throw ExecutionError.QUEUE_UNAVAILABLE.exception("unreadable answer from queue-service");
        }
    }

    private static String text(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asText() : null;
    }

    private static Long longOrNull(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asLong() : null;
    }
}
