package io.batchyard.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Batchyard's calls for jobs, over REST: the lifecycle (InitJob, InitStep, HaltStep, TermStep, HaltJob, TermJob) and
 * process log on execution-service, RegisterFile on queue-service, properties on registry-service. Every call is
 * synchronous, sends the {@link TokenSource}'s bearer token, repeats a 503 by the {@link RetryRule} and turns any
 * other refusal into a {@link ProblemException} carrying Batchyard's code. Thread-safe.
 */
public final class BatchyardClient {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);
    /** Writes bodies of {@link #call} exactly as the caller built them. */
    private static final ObjectMapper RAW = new ObjectMapper();
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(60);

    private final ClientSettings settings;
    private final HttpClient http;
    private final Sleeper sleeper;

    /** How the client waits between attempts (tests replace it). */
    interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    public BatchyardClient(ClientSettings settings) {
        this(settings, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(),
                d -> Thread.sleep(d.toMillis()));
    }

    BatchyardClient(ClientSettings settings, HttpClient http, Sleeper sleeper) {
        this.settings = Objects.requireNonNull(settings);
        this.http = http;
        this.sleeper = sleeper;
    }

    /** A client configured from system properties, the environment and {@code batchyard-client.properties}. */
    public static BatchyardClient fromEnvironment() {
        return new BatchyardClient(ClientSettings.fromEnvironment());
    }

    public ClientSettings settings() {
        return settings;
    }

    // ---- lifecycle (execution-service) ----

    /** InitJob: starts (or retries) a run of parent {@code processId}, claiming up to {@code maxBatch} batches per step. */
    public JobStart initJob(long processId, Integer maxBatch) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("maxBatch", maxBatch);
        return post(settings.execution(), "/jobs/" + processId + "/init", body, JobStart.class);
    }

    /** InitStep: step {@code subProcessId} of the running parent starts. */
    public StepStart initStep(long subProcessId) {
        return post(settings.execution(), "/steps/" + subProcessId + "/init", null, StepStart.class);
    }

    /** HaltStep: the steps completed (each in its own transaction, in order); answers the halted ids. */
    public List<Long> haltSteps(List<Long> subProcessIds) {
        if (subProcessIds.isEmpty()) {
            throw new IllegalArgumentException("HaltStep needs at least one sub-process id");
        }
        String ids = subProcessIds.stream().map(String::valueOf).collect(Collectors.joining(","));
        return stepIds(post(settings.execution(), "/steps/" + ids + "/halt", null, JsonNode.class));
    }

    /** TermStep: step {@code subProcessId} failed. */
    public void termStep(long subProcessId) {
        post(settings.execution(), "/steps/" + subProcessId + "/term", null, JsonNode.class);
    }

    /** HaltJob: the run completed; its target batch is handed downstream with {@code batchMarking} (may be null). */
    public JobEnded haltJob(long processId, String batchMarking) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("batchMarking", batchMarking);
        return post(settings.execution(), "/jobs/" + processId + "/halt", body, JobEnded.class);
    }

    /** TermJob: the run failed; {@code code} and {@code text} (both optional) say why and are kept on the run. */
    public JobEnded termJob(long processId, Integer code, String text) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code);
        body.put("text", text);
        return post(settings.execution(), "/jobs/" + processId + "/term", code == null && text == null ? null : body,
                JobEnded.class);
    }

    // ---- files (queue-service) ----

    /** RegisterFile: records a file under a batch (a new batch when the file's batch id is null or 0). */
    public RegisteredFile registerFile(FileToRegister file) {
        return post(settings.queue(), "/files", file, RegisteredFile.class);
    }

    // ---- process log (execution-service) ----

    /** AddProcessLog: records the entry for {@code processId}; answers it with its log id and time. */
    public LogEntry addProcessLog(long processId, LogEntry entry) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("category", entry.category());
        body.put("messageId", entry.messageId());
        body.put("message", entry.message());
        body.put("instanceRef", entry.instanceRef());
        body.put("addTs", entry.addTs());
        return post(settings.execution(), "/processes/" + processId + "/log", body, LogEntry.class);
    }

    /** The process's entries, newest first, filtered by category and/or message id (each may be null). */
    public List<LogEntry> readProcessLog(long processId, String category, String messageId, int limit) {
        String query = query("category", category, "messageId", messageId, "limit", String.valueOf(limit));
        JsonNode page = get(settings.execution(), "/processes/" + processId + "/log" + query, JsonNode.class)
                .orElseThrow();
        return JSON.convertValue(page.path("items"), new TypeReference<List<LogEntry>>() { });
    }

    /** getLastValue: the newest entry of {@code messageId} in {@code category}, or empty when there is none (414). */
    public Optional<LogEntry> lastProcessLogValue(long processId, String messageId, String category) {
        try {
            return get(settings.execution(), "/processes/" + processId + "/log/last"
                    + query("messageId", messageId, "category", category), LogEntry.class);
        } catch (ProblemException e) {
            if (Integer.valueOf(414).equals(e.code())) {
                return Optional.empty();
            }
            throw e;
        }
    }

    // ---- properties (registry-service) ----

    /** The process's properties, of one config group when {@code configGroup} is not null. */
    public List<Property> properties(long processId, String configGroup) {
        JsonNode list = get(settings.registry(), "/processes/" + processId + "/properties"
                + query("configGroup", configGroup), JsonNode.class).orElseThrow();
        return JSON.convertValue(list, new TypeReference<List<Property>>() { });
    }

    /** One property by key, or empty when the process has none by that key. */
    public Optional<Property> property(long processId, String key) {
        try {
            return get(settings.registry(), "/processes/" + processId + "/properties/"
                    + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20"), Property.class);
        } catch (ProblemException e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    // ---- views for operators (the CLI): the services' answers as they came ----

    /** {@code GET /runs}: runs, newest first, of {@code processId} and in {@code state} (a name or number) when given. */
    public JsonNode runs(Long processId, String state, int limit, int offset) {
        return get(settings.execution(), "/runs" + query("processId", processId == null ? null : processId.toString(),
                "state", state, "limit", String.valueOf(limit), "offset", String.valueOf(offset)), JsonNode.class)
                .orElseThrow();
    }

    /** {@code GET /deadlines}: data deadlines of expected buckets, soonest due first. */
    public JsonNode deadlines(String state, Long processId, int limit, int offset) {
        return get(settings.execution(), "/deadlines" + query("state", state, "processId",
                processId == null ? null : processId.toString(), "limit", String.valueOf(limit),
                "offset", String.valueOf(offset)), JsonNode.class).orElseThrow();
    }

    /** {@code POST /deadlines/{id}/waive}: an operator's decision that the deadline no longer counts. */
    public JsonNode waiveDeadline(long deadlineId, String reason) {
        return post(settings.execution(), "/deadlines/" + deadlineId + "/waive", Map.of("reason", reason),
                JsonNode.class);
    }

    /** {@code GET /queue}: the consumption queue rows of step {@code processId}, oldest first. */
    public JsonNode queue(long processId, String state, int limit, int offset) {
        return get(settings.queue(), "/queue" + query("processId", String.valueOf(processId), "state", state,
                "limit", String.valueOf(limit), "offset", String.valueOf(offset)), JsonNode.class).orElseThrow();
    }

    /** {@code GET /why/{pid}}: why a stand-alone job (or one bucket of it, when given) is not running. */
    public JsonNode why(long processId, String bucket) {
        return get(settings.execution(), "/why/" + processId + query("bucket", bucket), JsonNode.class).orElseThrow();
    }

    /**
     * The parent's generated workflow as registry-service writes it, in {@code format} ({@code oozie} XML,
     * {@code airflow} Python, {@code dot}, {@code svg}).
     */
    public String workflow(long processId, String format) {
        return send(request(settings.registry(), "/processes/" + processId + "/workflow" + query("format", format))
                .setHeader("Accept", "*/*").GET()).orElse("");
    }

    /**
     * Any JSON call to one of the services ({@code base}: one of the settings' service roots), with the token, retry
     * rule and refusals of every other call. The body is written as given, nulls included (a PATCH clears a field with
     * one); an answer without a body is empty.
     */
    public Optional<JsonNode> call(URI base, String method, String path, Object body) {
        HttpRequest.Builder b = request(base, path).method(method, publisher(RAW, body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return send(b, JsonNode.class);
    }

    // ---- transport ----

    private static List<Long> stepIds(JsonNode answer) {
        return JSON.convertValue(answer.path("subProcessIds"), new TypeReference<List<Long>>() { });
    }

    private static String query(String... pairs) {
        StringBuilder q = new StringBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null) {
                q.append(q.length() == 0 ? '?' : '&').append(pairs[i]).append('=')
                        .append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
            }
        }
        return q.toString();
    }

    private <T> T post(URI base, String path, Object body, Class<T> answer) {
        HttpRequest.Builder b = request(base, path).POST(publisher(JSON, body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return send(b, answer).orElseThrow(() -> new ProblemException(0, null, null, "empty answer to POST " + path));
    }

    private static HttpRequest.BodyPublisher publisher(ObjectMapper mapper, Object body) {
        try {
            return body == null ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(mapper.writeValueAsString(body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private <T> Optional<T> get(URI base, String path, Class<T> answer) {
        return send(request(base, path).GET(), answer);
    }

    private <T> Optional<T> send(HttpRequest.Builder b, Class<T> answer) {
        return send(b).flatMap(body -> parse(body, answer));
    }

    private HttpRequest.Builder request(URI base, String path) {
        String root = base.toString().endsWith("/") ? base.toString().substring(0, base.toString().length() - 1)
                : base.toString();
        return HttpRequest.newBuilder(URI.create(root + path)).timeout(CALL_TIMEOUT)
                .header("Accept", "application/json, application/problem+json");
    }

    /**
     * Sends with the token, repeating 503s and refused connections by the rule and a 401 once with a fresh token;
     * answers the body of a 2xx (empty when it had none).
     */
    private Optional<String> send(HttpRequest.Builder b) {
        RetryRule rule = settings.retry();
        boolean renewed = false;
        for (int attempt = 1; ; attempt++) {
            HttpRequest request = b.copy().header("Authorization", "Bearer " + settings.tokens().token()).build();
            HttpResponse<String> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (ConnectException | HttpConnectTimeoutException e) {
                Optional<Duration> wait = rule.delayAfterConnectFailure(attempt);
                if (wait.isEmpty()) {
                    throw new ProblemException(503, null, "unreachable", request.uri() + ": " + e);
                }
                pause(wait.get());
                continue;
            } catch (IOException e) {
                throw new UncheckedIOException(request.method() + " " + request.uri() + " failed", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted during " + request.method() + " " + request.uri(), e);
            }
            int status = response.statusCode();
            if (status == 401 && !renewed) {
                settings.tokens().invalidate();
                renewed = true;
                attempt--; // a fresh token is not a retry of an unavailable service
                continue;
            }
            if (status >= 200 && status < 300) {
                String body = response.body();
                return body == null || body.isBlank() ? Optional.empty() : Optional.of(body);
            }
            Optional<Duration> wait = rule.delayAfter(attempt, status,
                    response.headers().firstValue("Retry-After").orElse(null), Instant.now());
            if (wait.isEmpty()) {
                throw Problems.of(status, response.body());
            }
            pause(wait.get());
        }
    }

    private static <T> Optional<T> parse(String body, Class<T> answer) {
        if (body == null || body.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(body, answer));
        } catch (IOException e) {
            throw new UncheckedIOException("unexpected answer: " + body, e);
        }
    }

    private void pause(Duration d) {
        try {
            sleeper.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry", e);
        }
    }
}
