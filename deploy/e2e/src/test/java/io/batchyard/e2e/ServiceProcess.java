package io.batchyard.e2e;

import io.batchyard.teststack.ChildProcesses;
import io.batchyard.teststack.Management;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One packaged service ({@code <module>/target/quarkus-app/quarkus-run.jar}) running as its own JVM. It can be killed
 * the way {@code kill -9} does and started again on the same ports with the same environment, so that callers keep
 * their URL; its log is appended to, never truncated, across restarts. Health, metrics and OpenAPI answer on its
 * management port ({@link #management()}), not on its main port.
 */
final class ServiceProcess implements AutoCloseable {

    /** Quarkus' own URI check answers malformed percent-encoding with an empty 400; off, the edge screen answers. */
    private static final String URI_SCREEN = "-Dvertx.disableURIValidation=true";
    /**
     * The client compiler only: a test stack's JVMs live for minutes and spend most of their CPU starting up, and on a
     * small CI machine the server compiler's threads compete with four or six JVMs booting side by side.
     */
    private static final String QUICK_JIT = "-XX:TieredStopAtLevel=1";

    private final String module;
    private final int port;
    private final int managementPort;
    private final List<String> command;
    private final Map<String, String> env;
    private final Path log;
    private volatile Process process;

    private ServiceProcess(String module, int port, int managementPort, List<String> command, Map<String, String> env,
                           Path log) {
        this.module = module;
        this.port = port;
        this.managementPort = managementPort;
        this.command = command;
        this.env = env;
        this.log = log;
    }

    static ServiceProcess start(String module, Map<String, String> env) {
        return start(module, module, env);
    }

    /** @param name names the log file, so that replicas of one module log apart */
    static ServiceProcess start(String module, String name, Map<String, String> env) {
        return spawn(module, name, env).ready();
    }

    /**
     * Starts the JVM without waiting for it: its URL is known at once, so a stack starts its services side by side
     * and waits for them together ({@link #ready()}).
     */
    static ServiceProcess spawn(String module, String name, Map<String, String> env) {
        Path jar = packaged(module).resolve("quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: package the services first (./mvnw -B verify does)");
        }
        try {
            Path logDir = Files.createDirectories(Path.of("target", "e2e-logs"));
            String java = ProcessHandle.current().info().command().orElse("java");
            ServiceProcess service = new ServiceProcess(module, ChildProcesses.freePort(), ChildProcesses.freePort(),
                    List.of(java, "-Xmx384m", "-XX:+UseSerialGC", QUICK_JIT, URI_SCREEN, "-jar", jar.toString()), Map.copyOf(env),
                    logDir.resolve(name + ".log"));
            service.spawnProcess();
            return service;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The packaged service: {@code <module>/target/quarkus-app}, or {@code $BATCHYARD_E2E_APPS/<module>/quarkus-app}
     * when that is set, a copy that a build running next to the test cannot replace half-way through.
     */
    private static Path packaged(String module) {
        String apps = System.getenv("BATCHYARD_E2E_APPS");
        Path dir = apps == null || apps.isBlank() ? Path.of("..", "..", module, "target", "quarkus-app")
                : Path.of(apps, module, "quarkus-app");
        return dir.toAbsolutePath().normalize();
    }

    private void launch() {
        spawnProcess();
        ready();
    }

    /** Waits until the service answers ready; returns it. */
    ServiceProcess ready() {
        awaitReady(Duration.ofSeconds(180));
        return this;
    }

    private void spawnProcess() {
        try {
            Files.writeString(log, "==== " + Instant.now() + " starting " + module + "\n", StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().putAll(env);
            pb.environment().put("QUARKUS_HTTP_PORT", String.valueOf(port));
            pb.environment().put("QUARKUS_MANAGEMENT_PORT", String.valueOf(managementPort));
            process = pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code kill -9}: the JVM ends at once, without shutdown hooks, leaving its group and connections behind. */
    void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(module + " survived SIGKILL for 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts the killed service again on its port with its environment; returns once it is ready. */
    void restart() {
        if (process.isAlive()) {
            throw new IllegalStateException(module + " is still running");
        }
        launch();
    }

    /** The file the service's stdout and stderr go to. */
    Path log() {
        return log;
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    /** Where its health checks, meters and OpenAPI document answer, without a token. */
    Management management() {
        return Management.at("127.0.0.1", managementPort);
    }

    private void awaitReady(Duration timeout) {
        ChildProcesses.awaitOk(process, module, management().ready(), timeout, log);
    }

    String tail() {
        return ChildProcesses.tail(log, 60);
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
}
