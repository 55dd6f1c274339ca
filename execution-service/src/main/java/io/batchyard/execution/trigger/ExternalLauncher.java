package io.batchyard.execution.trigger;

import io.batchyard.eventing.persistence.Blocking;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The launcher hook of Oozie and Airflow parents ({@link LaunchHookConfig}): an HTTP POST of the {@link LaunchRequest}
 * or a command. Each attempt blocks, so it runs on a worker thread; a failed attempt is retried with back-off, and
 * the answer of the last one is what a failed trigger reports.
 */
@ApplicationScoped
public class ExternalLauncher {

    private static final Logger LOG = Logger.getLogger(ExternalLauncher.class);
    /** The most of an answer or of a command's output a failure reason keeps. */
    private static final int REASON_CHARS = 300;

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

    /** Launches, retrying; empty when an attempt succeeded, else why the last one failed. */
    public Uni<Optional<String>> launch(LaunchRequest request) {
        int attempts = Math.max(1, config.attempts());
        return Uni.createFrom().deferred(() -> Blocking.blocking(() -> {
                    attempt(request);
                    return Optional.<String>empty();
                }))
                .onFailure().invoke(e -> LOG.warnf("launcher hook (%s) for parent %d failed: %s", config.kind(),
                        request.processId(), e.getMessage()))
                .onFailure().retry()
                .withBackOff(config.backoff(), config.backoff().multipliedBy(1L << Math.min(attempts, 10)))
                .atMost(attempts - 1)
                .onFailure().recoverWithItem(e -> Optional.of(e.getMessage()));
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

    private void run(LaunchRequest request) throws IOException, InterruptedException {
        String command = config.command().orElseThrow(() -> new IllegalStateException(
                "batchyard.trigger.launcher.command is not set for the command launcher hook"));
        List<String> argv = new ArrayList<>();
        argv.add(command);
        argv.addAll(config.args().orElse(List.of()));
        argv.add(String.valueOf(request.processId()));
        argv.add(request.workflowType());
        argv.add(request.batches().isEmpty() ? "" : String.valueOf(request.batches().get(0).sourceBatchId()));
        // output to a file, so that a command that hangs with its output open is still stopped at the timeout
        Path output = Files.createTempFile("batchyard-launch-", ".out");
        try {
            ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(output.toFile());
            // the service's own environment holds its secrets: the hook gets none of it
            Map<String, String> env = builder.environment();
            env.clear();
            env.put("PATH", "/usr/bin:/bin");
            Process process = builder.start();
            try (OutputStream in = process.getOutputStream()) {
                in.write(request.json().getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // a command that does not read its input closed it early: its exit code still decides
            }
            if (!process.waitFor(config.timeout().toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException(command + " did not end within " + config.timeout());
            }
            if (process.exitValue() != 0) {
                throw new IOException(command + " exited with " + process.exitValue() + ": "
                        + cut(new String(Files.readAllBytes(output), StandardCharsets.UTF_8)));
            }
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static String cut(String text) {
        String t = text == null ? "" : text.strip();
        return t.length() <= REASON_CHARS ? t : t.substring(0, REASON_CHARS) + "…";
    }
}
