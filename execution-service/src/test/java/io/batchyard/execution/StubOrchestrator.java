package io.batchyard.execution;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for the orchestrator (Oozie, Airflow) that the HTTP launcher hook asks to start a parent, served by
 * {@link StubQueue}'s server at {@code /orchestrator}: it keeps every request body per parent and answers 202, or 503
 * for as many calls as a test asked it to fail.
 */
public final class StubOrchestrator {

    static final String PATH = "/orchestrator";
    private static final Pattern PROCESS = Pattern.compile("\"processId\"\\s*:\\s*(\\d+)");
    private static final Map<Long, List<String>> CALLS = new ConcurrentHashMap<>();
    private static final Map<Long, AtomicInteger> FAILURES = new ConcurrentHashMap<>();

    private StubOrchestrator() {
    }

    /** The request bodies the hook sent for the parent, in order. */
    public static List<String> calls(long processId) {
        return List.copyOf(CALLS.getOrDefault(processId, List.of()));
    }

    /** The next {@code times} calls for the parent answer 503. */
    public static void failNext(long processId, int times) {
        FAILURES.put(processId, new AtomicInteger(times));
    }

    static void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Matcher process = PROCESS.matcher(body);
        long pid = process.find() ? Long.parseLong(process.group(1)) : -1;
        CALLS.computeIfAbsent(pid, p -> new CopyOnWriteArrayList<>()).add(body);
        AtomicInteger failures = FAILURES.get(pid);
        boolean fail = failures != null && failures.getAndDecrement() > 0;
        byte[] answer = (fail ? "orchestrator unavailable" : "accepted").getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(fail ? 503 : 202, answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
    }
}
