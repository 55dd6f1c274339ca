package io.batchyard.execution;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for queue-service's impact walk ({@code POST /internal/backfills/impact}), served by {@link StubQueue}'s
 * server: it answers the JSON a test prepared for the request's first root process (an empty impact otherwise) and
 * keeps each root's last request. The walk itself is queue-service's, tested there and end to end.
 */
public final class StubImpact {

    static final String PATH = "/internal/backfills/impact";
    static final String REENQUEUE_PATH = "/internal/backfills/reenqueue";
    /** Every re-enqueue request, in arrival order: what a backfill offered again, and in place of what. */
    private static final java.util.List<String> REENQUEUES = new java.util.concurrent.CopyOnWriteArrayList<>();
    private static final Pattern BATCH = Pattern.compile("\"batchId\"\\s*:\\s*(\\d+)");
    private static final Pattern OFFERED = Pattern.compile("\"offeredBatchId\"\\s*:\\s*(\\d+)");
    private static final Pattern JOB = Pattern.compile("\"processId\"\\s*:\\s*(\\d+)");
    private static final Pattern FIRST_ROOT = Pattern.compile("\"rootProcessIds\"\\s*:\\s*\\[\\s*(\\d+)");
    private static final Map<Long, String> ANSWERS = new ConcurrentHashMap<>();
    private static final Map<Long, String> REQUESTS = new ConcurrentHashMap<>();

    private StubImpact() {
    }

    /** Every impact request whose first root is {@code rootProcessId} answers {@code json} (an ImpactResult). */
    public static void answer(long rootProcessId, String json) {
        ANSWERS.put(rootProcessId, json);
    }

    /** The body of the last impact request whose first root was {@code rootProcessId}, if any. */
    public static String lastRequest(long rootProcessId) {
        return REQUESTS.get(rootProcessId);
    }

    static void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Matcher root = FIRST_ROOT.matcher(body);
        long pid = root.find() ? Long.parseLong(root.group(1)) : -1;
        REQUESTS.put(pid, body);
        byte[] answer = ANSWERS.getOrDefault(pid, "{\"fingerprint\":\"" + "0".repeat(64)
                + "\",\"rowsRead\":0,\"units\":[]}").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
    }

    /** The re-enqueue requests so far, in arrival order. */
    public static java.util.List<String> reenqueues() {
        return java.util.List.copyOf(REENQUEUES);
    }

    /**
     * queue-service's re-enqueue as the backfill sees it: one step of the job was offered the batch (the offered one,
     * else the batch itself). The queue's own rules are tested in queue-service and end to end.
     */
    static void reenqueue(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        REENQUEUES.add(body);
        Matcher batch = BATCH.matcher(body);
        Matcher offered = OFFERED.matcher(body);
        Matcher job = JOB.matcher(body);
        long b = batch.find() ? Long.parseLong(batch.group(1)) : 0;
        long o = offered.find() ? Long.parseLong(offered.group(1)) : b;
        long p = job.find() ? Long.parseLong(job.group(1)) : 0;
        byte[] answer = ("{\"rows\":[{\"queueId\":" + (900_000 + REENQUEUES.size()) + ",\"supersededQueueId\":1,"
                + "\"batchId\":" + o + ",\"processId\":" + (p + 1) + ",\"batchMarking\":\"x\"}]}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
    }
}
