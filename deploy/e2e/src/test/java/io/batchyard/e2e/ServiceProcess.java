package io.batchyard.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** One packaged service ({@code <module>/target/quarkus-app/quarkus-run.jar}) running as its own JVM. */
final class ServiceProcess implements AutoCloseable {

    private final String module;
    private final int port;
    private final Process process;
    private final Path log;

    private ServiceProcess(String module, int port, Process process, Path log) {
        this.module = module;
        this.port = port;
        this.process = process;
        this.log = log;
    }

    static ServiceProcess start(String module, Map<String, String> env) {
        Path jar = Path.of("..", "..", module, "target", "quarkus-app", "quarkus-run.jar").toAbsolutePath().normalize();
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: package the services first (./mvnw -B verify does)");
        }
        int port = freePort();
        try {
            Path logDir = Files.createDirectories(Path.of("target", "e2e-logs"));
            Path log = logDir.resolve(module + ".log");
            String java = ProcessHandle.current().info().command().orElse("java");
            ProcessBuilder pb = new ProcessBuilder(List.of(java, "-Xmx384m", "-XX:+UseSerialGC", "-jar", jar.toString()))
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().putAll(env);
            pb.environment().put("QUARKUS_HTTP_PORT", String.valueOf(port));
            ServiceProcess service = new ServiceProcess(module, port, pb.start(), log);
            service.awaitReady(Duration.ofSeconds(120));
            return service;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    private void awaitReady(Duration timeout) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(module + " exited with " + process.exitValue() + ":\n" + tail());
            }
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(url() + "/q/health/ready"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            sleep(250);
        }
        throw new IllegalStateException(module + " not ready within " + timeout + ":\n" + tail());
    }

    String tail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
