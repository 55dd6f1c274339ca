package io.batchyard.execution;

import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for queue-service's claim endpoint, so execution-service's own tests need no second service. It answers
 * like the real one: a new target batch per run, or a prepared answer (rows, retry, or a problem) for a parent.
 * The database and the broker of these tests stay real; the end-to-end test runs the real queue-service. The same
 * server is the orchestrator the launcher hook calls ({@link StubOrchestrator}).
 */
public class StubQueue implements QuarkusTestResourceLifecycleManager {

    private static final AtomicLong BATCHES = new AtomicLong(70_000);
    private static final Map<Long, String> PREPARED = new ConcurrentHashMap<>();
    /** How many more claims of each parent find queue-service unavailable (503). */
    private static final Map<Long, Integer> UNAVAILABLE = new ConcurrentHashMap<>();
    /** The Authorization header of the last claim of each parent: which identity execution-service presented. */
    private static final Map<Long, String> CALLERS = new ConcurrentHashMap<>();
    /** The request body of the last claim of each parent: what execution-service asked the queue for. */
    private static final Map<Long, String> CLAIMS = new ConcurrentHashMap<>();
    /** The traceparent header of the last claim of each parent: whether the caller's trace went with the call. */
    private static final Map<Long, String> TRACES = new ConcurrentHashMap<>();
    /** The request body of every claim of each parent, in arrival order. */
    private static final Map<Long, java.util.List<String>> ALL_CLAIMS = new ConcurrentHashMap<>();
    /** How many claims of each parent arrived, retries included. */
    private static final Map<Long, Integer> COUNTS = new ConcurrentHashMap<>();
    private static final Pattern PARENT = Pattern.compile("\"parentProcessId\"\\s*:\\s*(\\d+)");
    private static final Pattern RUN = Pattern.compile("\"instanceExecId\"\\s*:\\s*(\\d+)");
    private HttpServer server;

    /** The Authorization header execution-service sent with the last claim of {@code parentId}, if any. */
    public static String authorizationOfLastClaim(long parentId) {
        return CALLERS.get(parentId);
    }

    /** The JSON body of the last claim of {@code parentId} (its {@code maxBatch} among others), if any. */
    public static String lastClaim(long parentId) {
        return CLAIMS.get(parentId);
    }

    /** The traceparent header of the last claim of {@code parentId} ("" when it had none), if any. */
    public static String traceparentOfLastClaim(long parentId) {
        return TRACES.get(parentId);
    }

    /** The JSON body of every claim of {@code parentId} so far, in arrival order. */
    public static java.util.List<String> claimBodies(long parentId) {
        return java.util.List.copyOf(ALL_CLAIMS.getOrDefault(parentId, java.util.List.of()));
    }

    /** How many claims of {@code parentId} arrived, retries included. */
    public static int claimsOf(long parentId) {
        return COUNTS.getOrDefault(parentId, 0);
    }

    /** The next claim of {@code parentId} answers with this JSON body and status. */
    public static void prepare(long parentId, int status, String body) {
        PREPARED.put(parentId, status + "|" + body);
    }

    /** The next {@code times} claims of {@code parentId} answer 503, as a queue-service that is down behind a proxy. */
    public static void unavailableFor(long parentId, int times) {
        UNAVAILABLE.put(parentId, times);
    }

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/internal/claims", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Matcher parent = PARENT.matcher(body);
            long pid = parent.find() ? Long.parseLong(parent.group(1)) : -1;
            String authorization = exchange.getRequestHeaders().getFirst("Authorization");
            CALLERS.put(pid, authorization == null ? "" : authorization);
            CLAIMS.put(pid, body);
            ALL_CLAIMS.computeIfAbsent(pid, p -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(body);
            String traceparent = exchange.getRequestHeaders().getFirst("traceparent");
            TRACES.put(pid, traceparent == null ? "" : traceparent);
            COUNTS.merge(pid, 1, Integer::sum);
            // one of the failures left is used up (n to n - 1, 0 meaning this was the last); none left: removed
            boolean unavailable = UNAVAILABLE.computeIfPresent(pid, (p, left) -> left > 0 ? left - 1 : null) != null;
            String prepared = unavailable ? null : PREPARED.remove(pid);
            int status = 200;
            String answer;
            if (unavailable) {
                status = 503;
                answer = "{\"status\":503,\"title\":\"Service Unavailable\",\"detail\":\"queue-service is down\"}";
            } else if (prepared != null) {
                int bar = prepared.indexOf('|');
                status = Integer.parseInt(prepared.substring(0, bar));
                answer = prepared.substring(bar + 1);
            } else {
                answer = "{\"targetBatchId\":" + BATCHES.incrementAndGet() + ",\"retry\":false,\"rows\":[]}";
            }
            Matcher run = RUN.matcher(body);
            if (run.find()) {
                answer = answer.replace("$RUN", run.group(1));
            }
            byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", status == 200 ? "application/json" : "application/problem+json");
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.createContext(StubOrchestrator.PATH, StubOrchestrator::handle);
        server.createContext(StubImpact.PATH, StubImpact::handle);
        server.createContext(StubImpact.REENQUEUE_PATH, StubImpact::reenqueue);
        server.start();
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        // the launcher hook of Oozie and Airflow parents posts to the stand-in orchestrator; retries are quick here
        // no lineage-service answers here (a closed port): a preview whose roots name columns is answered 467
        return Map.of("batchyard.queue.url", base, "batchyard.lineage.url", "http://127.0.0.1:9",
                "batchyard.trigger.launcher.kind", "http",
                "batchyard.trigger.launcher.url", base + StubOrchestrator.PATH,
                "batchyard.trigger.launcher.attempts", "3",
                "batchyard.trigger.launcher.backoff", "PT0.1S");
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
