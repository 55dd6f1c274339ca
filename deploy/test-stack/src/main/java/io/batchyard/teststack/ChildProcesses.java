package io.batchyard.teststack;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** What tests need around the servers they start as processes of their own: ports, logs, waiting. */
public final class ChildProcesses {

    private ChildProcesses() {
    }

    /** Every port {@link #freePort()} handed out in this JVM. */
    private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

    /** Where {@link #freePort()} looks: above the well-known and local-stack ports, below the kernel's ephemeral ones. */
    private static final int LOWEST_PORT = 15_000;
    /** The kernel's first ephemeral port, read once: {@link #freePort()} stays below it. */
    private static final int EPHEMERAL_LOW = ephemeralLow();

    /**
     * A TCP port free on this machine at the time of the call, and never handed out before in this JVM. It is taken
     * below the kernel's ephemeral range ({@code net.ipv4.ip_local_port_range}): a port from that range can be taken
     * meanwhile as the local end of any outgoing connection, and a child that binds late (Keycloak, 40 s after its
     * start) then finds it in use. Chosen at random, so the test JVMs running side by side rarely try the same one.
     */
    public static int freePort() {
        while (true) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST_PORT, EPHEMERAL_LOW);
            if (GIVEN.contains(port)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(false);
                socket.bind(new InetSocketAddress(port));
                if (GIVEN.add(port)) {
                    return port;
                }
            } catch (IOException inUse) {
                // taken: try another
            }
        }
    }

    /** The first port of the kernel's ephemeral range; 32768 where the machine does not say. */
    private static int ephemeralLow() {
        try {
            String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
            int low = Integer.parseInt(range.split("\\s+")[0]);
            return low > LOWEST_PORT + 1_000 ? low : 32_768;
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    /** The last {@code lines} lines of a process's log, for a failure message. */
    public static String tail(Path log, int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /**
     * Returns once {@code uri} answers 200; fails with the log's tail when {@code process} exits first or
     * {@code timeout} passes.
     */
    public static void awaitOk(Process process, String name, URI uri, Duration timeout, Path log) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + tail(log, 60));
            }
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding());
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
        throw new IllegalStateException(name + " not ready within " + timeout + ":\n" + tail(log, 60));
    }

    /** Stops {@code process} when the JVM exits (forcibly after 10 s), then runs {@code then}. */
    public static void stopOnExit(Process process, Runnable then) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            process.destroy();
            try {
                if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
            }
            then.run();
        }));
    }

    public static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Closes each of {@code parts} that is there, in order, for a suite's clean-up: a part that fails to close is
     * reported under {@code tag} and the others are still closed.
     */
    public static void closeAll(String tag, AutoCloseable... parts) {
        for (AutoCloseable part : parts) {
            if (part == null) {
                continue;
            }
            try {
                part.close();
            } catch (Exception e) {
                System.err.println("[" + tag + "] closing " + part + ": " + e);
            }
        }
    }
}
