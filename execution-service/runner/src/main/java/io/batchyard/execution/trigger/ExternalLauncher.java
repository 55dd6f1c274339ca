package io.batchyard.execution.trigger;

import io.batchyard.execution.runner.CommandResult;
import io.batchyard.execution.runner.OsCommand;
import io.batchyard.persistence.Blocking;
import io.quarkus.rest.client.reactive.QuarkusRestClientBuilder;
import io.smallrye.faulttolerance.api.TypedGuard;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.util.TypeLiteral;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The launcher hook of Oozie and Airflow parents ({@link LaunchHookConfig}): an HTTP POST of the {@link LaunchRequest}
 * or a command (run by the runner's {@link OsCommand}: no environment but PATH, the request on its input, killed with
 * every process it started at the timeout). Each attempt blocks, so it runs on a worker thread; a failed attempt is
 * retried with back-off (a Fault Tolerance guard built from {@link LaunchHookConfig}: the waits are timers, no thread
 * sleeps through them), and the answer of the last one is what a failed trigger reports.
 */
@ApplicationScoped
public class ExternalLauncher {

    private static final Logger LOG = Logger.getLogger(ExternalLauncher.class);
    /** The most of an answer or of a command's output a failure reason keeps. */
    private static final int REASON_CHARS = 300;

    /** The command's whole environment. */
    private static final Map<String, String> HOOK_ENVIRONMENT = Map.of("PATH", "/usr/bin:/bin");

    private final LaunchHookConfig config;
    /** The {@code http} hook's client: the configured URL as its base, one attempt's timeout as its deadlines. */
    private final Optional<LauncherHookApi> http;
    private final TypedGuard<Uni<Void>> retries;

    public ExternalLauncher(LaunchHookConfig config) {
        this.config = config;
        this.http = config.kind() == LaunchHookConfig.Kind.HTTP ? config.url().map(url -> QuarkusRestClientBuilder
                .newBuilder().baseUri(URI.create(url))
                .connectTimeout(config.timeout().toMillis(), TimeUnit.MILLISECONDS)
                .readTimeout(config.timeout().toMillis(), TimeUnit.MILLISECONDS)
                .build(LauncherHookApi.class)) : Optional.empty();
        long backoff = Math.max(1, config.backoff().toMillis());
        long maxDelay = backoff << 10;
        int attempts = Math.max(1, config.attempts());
        // Every failure of an attempt is worth another: the orchestrator or the command may be back a moment later.
        // The attempts, not a time budget, bound the retries: the budget is what every attempt may take (its timeout
        // and the longest wait before it), so no setting makes it shorter than a wait, which the guard would refuse.
        this.retries = TypedGuard.create(new TypeLiteral<Uni<Void>>() { })
                .withDescription("launcher hook")
                .withRetry().maxRetries(attempts - 1).retryOn(Exception.class)
                .delay(backoff, ChronoUnit.MILLIS).jitter(backoff / 10, ChronoUnit.MILLIS)
                .maxDuration(retryBudget(attempts, config.timeout().toMillis(), maxDelay), ChronoUnit.MILLIS)
                .withExponentialBackoff().factor(2).maxDelay(maxDelay, ChronoUnit.MILLIS).done()
                .done().build();
    }

    /** Each attempt's timeout and the longest wait with its jitter, for every attempt, saturating at the longest. */
    static long retryBudget(int attempts, long timeoutMillis, long maxDelayMillis) {
        long perAttempt = Math.max(0, timeoutMillis) + maxDelayMillis + maxDelayMillis / 10 + 1;
        return perAttempt > Long.MAX_VALUE / 4 / attempts ? Long.MAX_VALUE / 4 : perAttempt * attempts;
    }

    /** Whether a hook is configured: without one, triggers of Oozie and Airflow parents are ignored. */
    public boolean configured() {
        return config.kind() != LaunchHookConfig.Kind.NONE;
    }

    public LaunchHookConfig.Kind kind() {
        return config.kind();
    }

    /**
     * Launches, retrying; empty when an attempt succeeded, else why the last one failed. Each attempt runs on a worker
     * thread, the back-off before the next is a timer, and the answer comes back on the caller's context (the trigger
     * consumer's, whose transaction records it): neither the HTTP call, the command's wait nor a back-off ever holds a
     * Kafka consumer or event-loop thread.
     */
    public Uni<Optional<String>> launch(LaunchRequest request) {
        int attempts = Math.max(1, config.attempts());
        int[] attempt = {0};
        Context caller = Vertx.currentContext();
        Callable<Void> once = () -> {
            int n = ++attempt[0];
            try {
                attempt(request);
                return null;
            } catch (IOException | RuntimeException e) {
                LOG.warnf("launcher hook (%s) for parent %d failed (attempt %d of %d): %s", config.kind(),
                        request.processId(), n, attempts, e.getMessage());
                throw e instanceof IOException io ? new UncheckedIOException(io.getMessage(), io)
                        : (RuntimeException) e;
            }
        };
        // A retry starts from the guard's timer: each attempt is handed to a worker of the caller's context, and the
        // outcome goes back to that context, where the caller's session lives.
        Uni<Optional<String>> outcome = retries.get(() -> caller == null ? Blocking.blocking(once)
                        : Uni.createFrom().completionStage(() -> caller.executeBlocking(once, false)
                                .toCompletionStage()))
                .replaceWith(Optional.<String>empty())
                .onFailure().recoverWithItem(e -> Optional.of(String.valueOf(e.getMessage())));
        return caller == null ? outcome : outcome.emitOn(task -> caller.runOnContext(ignored -> task.run()));
    }

    private void attempt(LaunchRequest request) throws IOException {
        switch (config.kind()) {
            case HTTP -> post(request);
            case COMMAND -> run(request);
            case NONE -> throw new IllegalStateException("no launcher hook is configured");
        }
    }

    private void post(LaunchRequest request) throws IOException {
        LauncherHookApi hook = http.orElseThrow(() -> new IllegalStateException(
                "batchyard.trigger.launcher.url is not set for the http launcher hook"));
        String url = config.url().orElseThrow();
        int status;
        String body;
        try (Response answer = hook.launch(request.json())) {
            status = answer.getStatus();
            body = status / 100 == 2 ? "" : answer.readEntity(String.class);
        } catch (WebApplicationException e) {
            status = e.getResponse().getStatus();
            body = e.getResponse().hasEntity() ? e.getResponse().readEntity(String.class) : "";
        } catch (ProcessingException e) {
            throw new IOException("POST " + url + " failed: " + (e.getCause() == null ? e : e.getCause()), e);
        }
        if (status / 100 != 2) {
            throw new IOException("POST " + url + " answered " + status + ": " + cut(body));
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
