package io.batchyard.teststack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Uuid;

/**
 * A single-node KRaft broker in a JVM of its own, which a test can stop and start again on the same port with the same
 * data, as an operator would. The shared {@link Infrastructure} broker cannot do that: its port is chosen anew by every
 * start and it is shared by every test of the JVM. This broker runs from the Kafka jars already on the test classpath
 * (the "local artifacts" of the shared stack), so it needs neither Docker nor a download. It is used even when
 * {@code BATCHYARD_TEST_KAFKA_BOOTSTRAP} names a broker or Docker answers: a broker given by URL cannot be stopped by
 * the test, and a container broker would need a fixed host port and Docker's own stop and start, a path that could
 * not be exercised where this was written (no Docker engine).
 */
public final class RestartableKafka implements AutoCloseable {

    private final int port;
    private final Path dir;
    private final Path log;
    private final List<String> command;
    private Process process;

    private RestartableKafka(int port, Path dir, List<String> command) {
        this.port = port;
        this.dir = dir;
        this.log = dir.resolve("kafka.log");
        this.command = command;
    }

    /** Formats a fresh data directory, starts the broker and creates the given topics (3 partitions each). */
    public static RestartableKafka start(List<String> topics) {
        try {
            Path dir = Files.createTempDirectory("batchyard-kafka-");
            int port = freePort();
            int controllerPort = freePort();
            Path config = dir.resolve("server.properties");
            Files.writeString(config, String.join("\n",
                    "process.roles=broker,controller", "node.id=1",
                    "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                    "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                    "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                    "controller.listener.names=CONTROLLER", "inter.broker.listener.name=PLAINTEXT",
                    "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                    "log.dirs=" + dir.resolve("data"), "num.partitions=3",
                    "offsets.topic.replication.factor=1", "offsets.topic.num.partitions=3",
                    "transaction.state.log.replication.factor=1", "transaction.state.log.min.isr=1",
                    "share.coordinator.state.topic.replication.factor=1", "share.coordinator.state.topic.min.isr=1",
                    "group.initial.rebalance.delay.ms=0", "auto.create.topics.enable=true") + "\n");
            String java = ProcessHandle.current().info().command().orElse("java");
            String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
            List<String> base = List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-cp", classpath);
            List<String> format = new ArrayList<>(base);
            format.addAll(List.of("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(), "-c",
                    config.toString()));
            Process formatting = new ProcessBuilder(format).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("format.log").toFile())).start();
            if (!formatting.waitFor(60, TimeUnit.SECONDS) || formatting.exitValue() != 0) {
                formatting.destroyForcibly();
                throw new IllegalStateException("formatting the Kafka storage failed:\n"
                        + Files.readString(dir.resolve("format.log")));
            }
            List<String> run = new ArrayList<>(base);
            run.addAll(List.of("kafka.Kafka", config.toString()));
            RestartableKafka kafka = new RestartableKafka(port, dir, run);
            kafka.launch();
            Infrastructure.createTopics(kafka.bootstrapServers(), topics);
            return kafka;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** Stops the broker the way an operator does (SIGTERM, a controlled shutdown), and waits until it is gone. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        process = null;
    }

    /** Starts the stopped broker again on the same port and data; returns once it answers. */
    public synchronized void restart() {
        if (process != null) {
            throw new IllegalStateException("the broker is running");
        }
        launch();
    }

    private void launch() {
        try {
            Files.writeString(log, "==== " + Instant.now() + " starting\n", java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        awaitReady(Duration.ofSeconds(90));
    }

    private void awaitReady(Duration timeout) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2000);
        Instant deadline = Instant.now().plus(timeout);
        try (Admin admin = Admin.create(props)) {
            while (Instant.now().isBefore(deadline)) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the Kafka broker exited:\n" + tail());
                }
                try {
                    if (!admin.describeCluster(new DescribeClusterOptions().timeoutMs(2000)).nodes()
                            .get(3, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException notYet) {
                    ChildProcesses.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
        }
        throw new IllegalStateException("the Kafka broker did not answer within " + timeout + ":\n" + tail());
    }

    private String tail() {
        return ChildProcesses.tail(log, 40);
    }

    @Override
    public synchronized void close() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory; best effort
        }
    }

    private static int freePort() {
        return ChildProcesses.freePort();
    }
}
