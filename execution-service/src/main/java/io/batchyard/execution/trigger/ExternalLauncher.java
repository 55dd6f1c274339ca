package io.batchyard.execution.trigger;

import io.batchyard.persistence.Blocking;
import io.batchyard.execution.runner.CommandResult;
import io.batchyard.execution.runner.OsCommand;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The launcher hook of Oozie and Airflow parents ({@link LaunchHookConfig}): an HTTP POST of the {@link LaunchRequest}
 * or a command (run by the runner's {@link OsCommand}: no environment but PATH, the request on its input, killed with
 * every process it started at the timeout). Each attempt blocks, so it runs on a worker thread; a failed attempt is
 * retried with back-off, and the answer of the last one is what a failed trigger reports.
 */
@ApplicationScoped
public class ExternalLauncher {

    private static final Logger LOG = Logger.getLogger(ExternalLauncher.class);
    /** The most of an answer or of a command's output a failure reason keeps. */
    private static final int REASON_CHARS = 300;

    /** The command's whole environment. */
    private static final Map<String, String> HOOK_ENVIRONMENT = Map.of("PATH", "/usr/bin:/bin");

    private final LaunchHookConfig config;
    private final HttpClient http;

    public ExternalLauncher(LaunchHookConfig config) {
        this.config = config;
        this.http = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
    }

    /** Whether a hook is configured: without one, triggers of Oozie and Airflow parents are ignored. */
    public boolean configured() {
        return config.kind() != LaunchHookConfig.Kind.NONE;
    }

    public LaunchHookConfig.Kind kind() {
        return config.kind();
    }

    /**
     * Launches, retrying; empty when an attempt succeeded, else why the last one failed. Each attempt, and the back-off
     * before it, runs on a worker thread, and the answer comes back on the caller's context (the trigger consumer's,
     * whose transaction records it): neither the HTTP call, the command's wait nor a back-off ever holds a Kafka
     * consumer or event-loop thread.
     */
    public Uni<Optional<String>> launch(LaunchRequest request) {
        return attempt(request, 1, Duration.ZERO)
                .onFailure().recoverWithItem(e -> Optional.of(String.valueOf(e.getMessage())));
    }

    private Uni<Optional<String>> attempt(LaunchRequest request, int attempt, Duration pause) {
        int attempts = Math.max(1, config.attempts());
        return Blocking.blocking(() -> {
            try {
                Thread.sleep(pause.toMillis());
                attempt(request);
                return Optional.<String>empty();
            } catch (InterruptedException e) {
                // the service is stopping: no further attempt
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted before the launch ended (the service is stopping)");
            } catch (IOException | RuntimeException e) {
                LOG.warnf("launcher hook (%s) for parent %d failed (attempt %d of %d): %s", config.kind(),
                        request.processId(), attempt, attempts, e.getMessage());
                return Optional.of(String.valueOf(e.getMessage()));
            }
        }).chain(failure -> failure.isEmpty() || attempt >= attempts
                ? Uni.createFrom().item(failure)
                : attempt(request, attempt + 1, attempt == 1 ? config.backoff() : pause.multipliedBy(2)));
    }

    private void attempt(LaunchRequest request) throws IOException, InterruptedException {
        switch (config.kind()) {
            case HTTP -> post(request);
            case COMMAND -> run(request);
            case NONE -> throw new IllegalStateException("no launcher hook is configured");
        }
    }

    private void post(LaunchRequest request) throws IOException, InterruptedException {
        String url = config.url().orElseThrow(() -> new IllegalStateException(
                "batchyard.trigger.launcher.url is not set for the http launcher hook"));
        HttpResponse<String> answer;
        try {
            answer = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(config.timeout())
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(request.json())).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IOException("POST " + url + " failed: " + e, e);
        }
        if (answer.statusCode() / 100 != 2) {
            throw new IOException("POST " + url + " answered " + answer.statusCode() + ": " + cut(answer.body()));
        }
    }

    private void run(LaunchRequest request) throws IOException {
        String command = config.command().orElseThrow(() -> new IllegalStateException(
                "batchyard.trigger.launcher.command is not set for the command launcher hook"));
        List<String> argv = new ArrayList<>();
        argv.add(command);
        argv.addAll(config.args().orElse(List.of()));
        argv.add(String.valueOf(request.processId()));
        argv.add(request.workflowType());
        argv.add(request.batches().isEmpty() ? "" : String.valueOf(request.batches().get(0).sourceBatchId()));
        // the service's own environment holds its secrets: the hook gets none of it
        CommandResult result = OsCommand.exec(argv, HOOK_ENVIRONMENT, null,
                request.json().getBytes(StandardCharsets.UTF_8), config.timeout(),
                (stream, line) -> LOG.debugf("launcher hook for parent %d %s: %s", request.processId(), stream, line));
        if (!result.started()) {
            throw new IOException(result.stderr());
        }
        if (result.timedOut()) {
            throw new IOException(command + " did not end within " + config.timeout()
                    + " (killed with the processes it started)");
        }
        if (result.exitCode() != 0) {
            throw new IOException(command + " exited with " + result.exitCode() + ": "
                    + cut(result.stderr() + result.stdout()));
        }
    }

    private static String cut(String text) {
        String t = text == null ? "" : text.strip();
        return t.length() <= REASON_CHARS ? t : t.substring(0, REASON_CHARS) + "…";
    }
}
