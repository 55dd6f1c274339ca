package io.batchyard.teststack;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;

/**
 * A MariaDB server for tests of clients that read MySQL/MariaDB databases (the BDRE import reads BDRE's metadata
 * database), started on first use and shared by every test of the JVM: {@code BATCHYARD_TEST_MARIADB_URL} (a JDBC URL
 * of the server, with {@code BATCHYARD_TEST_MARIADB_USER}, default root, and {@code BATCHYARD_TEST_MARIADB_PASSWORD},
 * default empty; the user must be allowed to create databases), else {@code mariadb:11.4} in a Testcontainers
 * container when Docker answers, else Debian's {@code mariadb-server} ({@code .ci/run} installs it where it is
 * missing): {@code mariadb-install-db} into a data directory of its own under {@code target/}, then
 * {@code mariadbd} on a free port of 127.0.0.1, stopped when the JVM exits. A server that already runs on the machine
 * is never used unless the environment names it.
 */
public final class MariaDbServer {

    /** The server: a JDBC URL without a database, and a user that may create databases. */
    public record Endpoint(String serverUrl, String user, String password, String description) {

        private static final AtomicInteger NEXT = new AtomicInteger();

        /** A database of its own for one test: fresh, so leftovers of earlier runs never leak in. */
        public Infrastructure.Database database(String name) {
            String db = (name + "_" + ProcessHandle.current().pid() + "_" + NEXT.incrementAndGet()
                    + "_" + System.nanoTime() % 100_000).toLowerCase().replaceAll("[^a-z0-9_]", "_");
            try (Connection c = DriverManager.getConnection(serverUrl, user, password);
                 Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE " + db);
            } catch (SQLException e) {
                throw new IllegalStateException("cannot create MariaDB database " + db + ": " + e.getMessage(), e);
            }
            return new Infrastructure.Database(Infrastructure.replaceDatabase(serverUrl, db), user, password);
        }
    }

    /** Neither the environment, Docker nor a local {@code mariadbd} offers a MariaDB server. */
    public static final class Unavailable extends RuntimeException {
        Unavailable(String message) {
            super(message);
        }
    }

    private static final List<String> SERVER_BINARIES = List.of("/usr/sbin/mariadbd", "/usr/sbin/mysqld");
    private static final List<String> INSTALL_BINARIES = List.of("/usr/bin/mariadb-install-db",
            "/usr/bin/mysql_install_db");

    private MariaDbServer() {
    }

    static Endpoint start(boolean docker) {
        String url = System.getenv("BATCHYARD_TEST_MARIADB_URL");
        if (url != null && !url.isBlank()) {
            return new Endpoint(url, env("BATCHYARD_TEST_MARIADB_USER", "root"), env("BATCHYARD_TEST_MARIADB_PASSWORD", ""),
                    "from BATCHYARD_TEST_MARIADB_URL " + url);
        }
        if (docker) {
            GenericContainer<?> container = new GenericContainer<>("mariadb:11.4").withExposedPorts(3306)
                    .withEnv(Map.of("MARIADB_ROOT_PASSWORD", "batchyard-test"))
                    .waitingFor(Wait.forLogMessage(".*ready for connections.*", 2));
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
            String server = "jdbc:mariadb://" + container.getHost() + ":" + container.getMappedPort(3306) + "/";
            return new Endpoint(server, "root", "batchyard-test", "Testcontainers MariaDB " + server);
        }
        Optional<String> mariadbd = firstExisting(SERVER_BINARIES, "mariadbd");
        Optional<String> install = firstExisting(INSTALL_BINARIES, "mariadb-install-db");
        if (mariadbd.isEmpty() || install.isEmpty()) {
            throw new Unavailable("no MariaDB: set BATCHYARD_TEST_MARIADB_URL, start Docker, or install Debian's "
                    + "mariadb-server (mariadbd and mariadb-install-db)");
        }
        return local(mariadbd.get(), install.get());
    }

    private static Endpoint local(String mariadbd, String install) {
        try {
            Path dir = Files.createDirectories(Path.of("target").toAbsolutePath()
                    .resolve("mariadb-" + ProcessHandle.current().pid()));
            Path data = dir.resolve("data");
            Path log = dir.resolve("mariadbd.log");
            List<String> user = System.getProperty("user.name").equals("root") ? List.of("--user=root") : List.of();
            List<String> installCommand = new ArrayList<>(List.of(install, "--no-defaults", "--datadir=" + data,
                    "--auth-root-authentication-method=normal", "--skip-test-db"));
            installCommand.addAll(user);
            Process installing = new ProcessBuilder(installCommand).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("install.log").toFile()).start();
            if (!installing.waitFor(120, java.util.concurrent.TimeUnit.SECONDS) || installing.exitValue() != 0) {
                installing.destroyForcibly();
                throw new IllegalStateException("mariadb-install-db failed:\n"
                        + ChildProcesses.tail(dir.resolve("install.log"), 40));
            }
            int port = ChildProcesses.freePort();
            List<String> command = new ArrayList<>(List.of(mariadbd, "--no-defaults", "--datadir=" + data,
                    "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + dir.resolve("mariadbd.sock"),
                    "--pid-file=" + dir.resolve("mariadbd.pid"), "--skip-name-resolve", "--innodb-buffer-pool-size=32M",
                    "--innodb-log-file-size=16M"));
            command.addAll(user);
            Process server = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                    .start();
            ChildProcesses.stopOnExit(server, () -> deleteQuietly(dir));
            String url = "jdbc:mariadb://127.0.0.1:" + port + "/";
            awaitConnection(server, url, log);
            return new Endpoint(url, "root", "", "mariadbd on 127.0.0.1:" + port + " (data in " + data + ")");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start mariadbd", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void awaitConnection(Process server, String url, Path log) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        SQLException last = null;
        while (Instant.now().isBefore(deadline)) {
            if (!server.isAlive()) {
                throw new IllegalStateException("mariadbd exited with " + server.exitValue() + ":\n"
                        + ChildProcesses.tail(log, 40));
            }
            try (Connection c = DriverManager.getConnection(url, "root", "")) {
                return;
            } catch (SQLException e) {
                last = e;
            }
            ChildProcesses.sleep(250);
        }
        throw new IllegalStateException("mariadbd not ready within 60 s (" + (last == null ? "" : last.getMessage())
                + "):\n" + ChildProcesses.tail(log, 40));
    }

    private static Optional<String> firstExisting(List<String> paths, String name) {
        for (String p : paths) {
            if (Files.isExecutable(Path.of(p))) {
                return Optional.of(p);
            }
        }
        String path = System.getenv("PATH");
        for (String d : path == null ? new String[0] : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, name))) {
                return Optional.of(Path.of(d, name).toString());
            }
        }
        return Optional.empty();
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // best effort at JVM exit
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
