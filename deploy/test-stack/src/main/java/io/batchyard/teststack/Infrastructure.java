package io.batchyard.teststack;

import io.batchyard.schemas.Topics;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * Where PostgreSQL, Kafka and the schema registry come from, decided once per JVM, for each independently (the
 * registry's own order is in {@link SchemaRegistryServer}; the S3 store's, started only when asked for, in
 * {@link ObjectStoreServer}):
 * <ol>
 *   <li>URLs given in the environment ({@code BATCHYARD_TEST_PG_URL} with {@code BATCHYARD_TEST_PG_USER} /
 *       {@code BATCHYARD_TEST_PG_PASSWORD}; {@code BATCHYARD_TEST_KAFKA_BOOTSTRAP});</li>
 *   <li>else Testcontainers, when a Docker engine answers (and {@code BATCHYARD_TEST_DOCKER} is not {@code false});</li>
 *   <li>else an embedded PostgreSQL (zonky binaries) and an in-process KRaft broker (KafkaClusterTestKit).</li>
 * </ol>
 * Every source is a real server: nothing here mocks the database or the broker.
 */
public final class Infrastructure {

    /**
     * How long the broker keeps commands: they carry their producer's bearer token in a header, so the topic keeps them
     * for an hour, as the local stack and the Kubernetes manifests do.
     */
    public static final Duration COMMANDS_RETENTION = Duration.ofHours(1);

    /** Topic settings that differ from the broker's defaults, by topic. */
    private static final Map<String, Map<String, String>> TOPIC_CONFIGS = Map.of(Topics.EXECUTION_COMMANDS,
            Map.of(TopicConfig.RETENTION_MS_CONFIG, String.valueOf(COMMANDS_RETENTION.toMillis())));

    public record Database(String jdbcUrl, String user, String password) {

        /** The database's name, as PostgreSQL's catalog ({@code pg_stat_activity.datname}) knows it. */
        public String name() {
            int query = jdbcUrl.indexOf('?');
            String path = query < 0 ? jdbcUrl : jdbcUrl.substring(0, query);
            return path.substring(path.lastIndexOf('/') + 1);
        }

        /**
         * The same database for the reactive client: the JDBC URL without its {@code jdbc:} prefix and without the
         * driver's own query parameters (such as Testcontainers' {@code loggerLevel}), which the reactive client rejects.
         */
        public String reactiveUrl() {
            String url = jdbcUrl.startsWith("jdbc:") ? jdbcUrl.substring("jdbc:".length()) : jdbcUrl;
            int query = url.indexOf('?');
            return query < 0 ? url : url.substring(0, query);
        }

        /**
         * A JDBC connection of its own to this database: PostgreSQL's through its driver directly (see
         * {@link Infrastructure#connect}); another engine's, such as a {@link MariaDbServer} database, through
         * DriverManager, whose driver is on the test's own class path.
         */
        public Connection connect() throws SQLException {
            return jdbcUrl.startsWith("jdbc:postgresql:") ? Infrastructure.connect(jdbcUrl, user, password)
                    : DriverManager.getConnection(jdbcUrl, user, password);
        }

        /** Runs one statement on a connection of its own, for a test that sets up or changes the database. */
        public void execute(String sql) throws SQLException {
            try (Connection c = connect();
                 Statement s = c.createStatement()) {
                s.execute(sql);
            }
        }

        /** The first column of every row of {@code sql}, as text, on a connection of its own. */
        public List<String> firstColumn(String sql) throws SQLException {
            List<String> values = new ArrayList<>();
            try (Connection c = connect();
                 Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
                while (r.next()) {
                    values.add(r.getString(1));
                }
            }
            return values;
        }
    }

    private static volatile Infrastructure instance;

    private final String adminJdbcUrl;
    private final String pgUser;
    private final String pgPassword;
    private final String kafkaBootstrap;
    private final String schemaRegistryUrl;
    private final String description;
    private final Map<String, Database> databases = new ConcurrentHashMap<>();
    private volatile ObjectStoreServer.Endpoint objectStore;
    private volatile MariaDbServer.Endpoint mariadb;

    private Infrastructure(String adminJdbcUrl, String pgUser, String pgPassword, String kafkaBootstrap,
                           String schemaRegistryUrl, String description) {
        this.adminJdbcUrl = adminJdbcUrl;
        this.pgUser = pgUser;
        this.pgPassword = pgPassword;
        this.kafkaBootstrap = kafkaBootstrap;
        this.schemaRegistryUrl = schemaRegistryUrl;
        this.description = description;
    }

    public static Infrastructure get() {
        Infrastructure local = instance;
        if (local == null) {
            synchronized (Infrastructure.class) {
                local = instance;
                if (local == null) {
                    local = start();
                    instance = local;
                }
            }
        }
        return local;
    }

    public String kafkaBootstrapServers() {
        return kafkaBootstrap;
    }

    /** The schema registry's base URL ({@code http://host:port}); its APIs live under {@code /apis/}. */
    public String schemaRegistryUrl() {
        return schemaRegistryUrl;
    }

    public String description() {
        return description;
    }

    /**
     * The S3-compatible store (its own order is in {@link ObjectStoreServer}), started on the first call only: most
     * test JVMs never need it.
     */
    public ObjectStoreServer.Endpoint objectStore() {
        ObjectStoreServer.Endpoint local = objectStore;
        if (local == null) {
            synchronized (this) {
                local = objectStore;
                if (local == null) {
                    local = ObjectStoreServer.start(dockerAnswers());
                    System.out.println("[batchyard-test-stack] S3: " + local.description());
                    objectStore = local;
                }
            }
        }
        return local;
    }

    /**
     * A MariaDB server (its own order is in {@link MariaDbServer}: {@code BATCHYARD_TEST_MARIADB_URL}, else
     * Testcontainers, else Debian's {@code mariadbd} on a data directory under {@code target/}), started on the first
     * call only; throws {@link MariaDbServer.Unavailable} when none of them can be had.
     */
    public MariaDbServer.Endpoint mariadb() {
        MariaDbServer.Endpoint local = mariadb;
        if (local == null) {
            synchronized (this) {
                local = mariadb;
                if (local == null) {
                    local = MariaDbServer.start(dockerAnswers());
                    System.out.println("[batchyard-test-stack] MariaDB: " + local.description());
                    mariadb = local;
                }
            }
        }
        return local;
    }

    /**
     * A JDBC connection to the test PostgreSQL, through the driver directly. DriverManager only hands out a driver
     * registered by the caller's own class loader, and in a module whose Quarkus tests ran first the driver may have
     * been registered by a test application's loader that is gone: a plain test then finds "no suitable driver".
     */
    public static Connection connect(String jdbcUrl, String user, String password) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password == null ? "" : password);
        Connection connection = new org.postgresql.Driver().connect(jdbcUrl, properties);
        if (connection == null) {
            throw new SQLException("not a PostgreSQL JDBC URL: " + jdbcUrl);
        }
        return connection;
    }

    /** A database private to this JVM's run of one service: fresh, so leftovers of earlier runs never leak in. */
    public Database database(String name) {
        return databases.computeIfAbsent(name, this::createDatabase);
    }

    private Database createDatabase(String name) {
        String dbName = (name + "_" + ProcessHandle.current().pid() + "_" + System.nanoTime() % 100_000)
                .toLowerCase().replaceAll("[^a-z0-9_]", "_");
        try (Connection c = connect(adminJdbcUrl, pgUser, pgPassword);
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + dbName);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create test database " + dbName + ": " + e.getMessage(), e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> dropQuietly(dbName)));
        return new Database(replaceDatabase(adminJdbcUrl, dbName), pgUser, pgPassword);
    }

    /**
     * Terminates every backend connected to {@code db} (as {@code pg_terminate_backend} does for an operator), the way
     * a database restart or a network cut ends a service's connections. Returns how many were terminated.
     */
    public int terminateConnections(Database db) throws SQLException {
        try (Connection c = connect(adminJdbcUrl, pgUser, pgPassword);
             var s = c.prepareStatement("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                     + "WHERE datname = ? AND pid <> pg_backend_pid()")) {
            s.setString(1, db.name());
            try (var rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private void dropQuietly(String dbName) {
        try (Connection c = connect(adminJdbcUrl, pgUser, pgPassword);
             Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + dbName + " WITH (FORCE)");
        } catch (SQLException ignored) {
            // the server may already be gone (embedded PostgreSQL stops in its own hook)
        }
    }

    static String replaceDatabase(String jdbcUrl, String dbName) {
        int schemeEnd = jdbcUrl.indexOf("//");
        int slash = jdbcUrl.indexOf('/', schemeEnd + 2);
        int query = jdbcUrl.indexOf('?');
        String base = slash < 0 ? (query < 0 ? jdbcUrl : jdbcUrl.substring(0, query)) : jdbcUrl.substring(0, slash);
        return base + "/" + dbName + (query < 0 ? "" : jdbcUrl.substring(query));
    }

    private static Infrastructure start() {
        boolean docker = dockerAnswers();
        String[] pg = postgres(docker);
        String[] kafka = kafka(docker);
        createTopics(kafka[0], Topics.ALL);
        String[] registry = SchemaRegistryServer.start(docker);
        String description = "PostgreSQL: " + pg[3] + "; Kafka: " + kafka[1] + "; schema registry: " + registry[1];
        System.out.println("[batchyard-test-stack] " + description);
        return new Infrastructure(pg[0], pg[1], pg[2], kafka[0], registry[0], description);
    }

    /** @return admin JDBC URL, user, password, description */
    private static String[] postgres(boolean docker) {
        String url = System.getenv("BATCHYARD_TEST_PG_URL");
        if (url != null && !url.isBlank()) {
            return new String[] {url, env("BATCHYARD_TEST_PG_USER", "postgres"), env("BATCHYARD_TEST_PG_PASSWORD", ""),
                "from BATCHYARD_TEST_PG_URL " + url};
        }
        if (docker) {
            PostgreSQLContainer container = new PostgreSQLContainer("postgres:15-alpine");
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
            return new String[] {container.getJdbcUrl(), container.getUsername(), container.getPassword(),
                "Testcontainers " + container.getJdbcUrl()};
        }
        try {
            Path workDir = Path.of(System.getProperty("java.io.tmpdir"), "batchyard-embedded-pg");
            Files.createDirectories(workDir);
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setOverrideWorkingDirectory(workDir.toFile())
                    .setServerConfig("max_connections", "300")
                    .setServerConfig("fsync", "off")
                    .start();
            onExit("embedded PostgreSQL", () -> {
                pg.close();
                return null;
            });
            String jdbc = pg.getJdbcUrl("postgres", "postgres");
            return new String[] {jdbc.replaceAll("[?&]user=[^&]*", ""), "postgres", "postgres",
                "embedded PostgreSQL on port " + pg.getPort()};
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start embedded PostgreSQL", e);
        }
    }

    /** @return bootstrap servers, description */
    private static String[] kafka(boolean docker) {
        String bootstrap = System.getenv("BATCHYARD_TEST_KAFKA_BOOTSTRAP");
        if (bootstrap != null && !bootstrap.isBlank()) {
            return new String[] {bootstrap, "from BATCHYARD_TEST_KAFKA_BOOTSTRAP " + bootstrap};
        }
        if (docker) {
            KafkaContainer container = new KafkaContainer("apache/kafka:4.1.1");
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
            return new String[] {container.getBootstrapServers(), "Testcontainers " + container.getBootstrapServers()};
        }
        // A fatal fault inside the in-process broker (typically while the JVM is already shutting down) makes Kafka
        // call Exit.halt(1): that would kill the test JVM with a failure code after every test passed. Log instead.
        org.apache.kafka.common.utils.Exit.setHaltProcedure((code, message) ->
                System.err.println("[batchyard-test-stack] in-process Kafka asked to halt (" + code + "): " + message));
        org.apache.kafka.common.utils.Exit.setExitProcedure((code, message) ->
                System.err.println("[batchyard-test-stack] in-process Kafka asked to exit (" + code + "): " + message));
        try {
            KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                    .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build())
                    .setConfigProp("offsets.topic.replication.factor", "1")
                    .setConfigProp("offsets.topic.num.partitions", "3")
                    .setConfigProp("transaction.state.log.replication.factor", "1")
                    .setConfigProp("transaction.state.log.min.isr", "1")
                    .setConfigProp("share.coordinator.state.topic.replication.factor", "1")
                    .setConfigProp("share.coordinator.state.topic.min.isr", "1")
                    .setConfigProp("group.initial.rebalance.delay.ms", "0")
                    .setConfigProp("auto.create.topics.enable", "true")
                    .build();
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            onExit("in-process Kafka", () -> {
                cluster.close();
                return null;
            });
            return new String[] {cluster.bootstrapServers(), "in-process KRaft broker " + cluster.bootstrapServers()};
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the in-process Kafka broker", e);
        }
    }

    /**
     * Creates the topics (3 partitions, replication 1) that do not exist yet, with their settings
     * ({@link #COMMANDS_RETENTION}); a topic that exists already (a broker given in the environment) gets the settings.
     */
    public static void createTopics(String bootstrap, List<String> names) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            List<NewTopic> topics = names.stream()
                    .map(t -> new NewTopic(t, 3, (short) 1).configs(TOPIC_CONFIGS.getOrDefault(t, Map.of()))).toList();
            admin.createTopics(topics).values().forEach((name, future) -> {
                try {
                    future.get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + name, e.getCause());
                    }
                    configure(admin, name);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            });
        }
    }

    private static void configure(Admin admin, String topic) {
        Map<String, String> settings = TOPIC_CONFIGS.getOrDefault(topic, Map.of());
        if (settings.isEmpty()) {
            return;
        }
        List<AlterConfigOp> ops = settings.entrySet().stream().map(e -> new AlterConfigOp(
                new ConfigEntry(e.getKey(), e.getValue()), AlterConfigOp.OpType.SET)).toList();
        try {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic), ops)).all()
                    .get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot configure topic " + topic, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Stops a server when the JVM exits, but never for longer than 10 s: a slow broker shutdown must not keep the
     * test JVM alive past the build tool's exit timeout after every test has passed.
     */
    private static void onExit(String what, java.util.concurrent.Callable<Void> close) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            Thread closer = new Thread(() -> {
                try {
                    close.call();
                } catch (Exception | LinkageError ignored) {
                    // best effort at JVM exit
                }
            }, "close " + what);
            closer.setDaemon(true);
            closer.start();
            try {
                closer.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
    }

    private static boolean dockerAnswers() {
        if ("false".equalsIgnoreCase(System.getenv("BATCHYARD_TEST_DOCKER"))) {
            return false;
        }
        boolean needed = isBlank(System.getenv("BATCHYARD_TEST_PG_URL"))
                || isBlank(System.getenv("BATCHYARD_TEST_KAFKA_BOOTSTRAP"))
                || isBlank(System.getenv("BATCHYARD_TEST_SCHEMA_REGISTRY_URL"));
        if (!needed) {
            return false;
        }
        // Don't even ask Testcontainers where no Docker socket or host is configured: its probe is slow and noisy.
        if (isBlank(System.getenv("DOCKER_HOST")) && !Files.exists(Path.of("/var/run/docker.sock"))
                && !Files.exists(Path.of(System.getProperty("user.home"), ".docker", "run", "docker.sock"))) {
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return isBlank(value) ? fallback : value;
    }
}
