package io.batchyard.e2e;

import io.batchyard.teststack.identity.Identity;
import io.batchyard.teststack.identity.SignedInByDefault;

import io.batchyard.teststack.Infrastructure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Stream;

/** The whole system for an end-to-end test: shared PostgreSQL and Kafka, and each service as its own process. */
final class Stack implements AutoCloseable {

    /** The registry's secrets key (base64 of 32 bytes), fixed for the tests. */
    static final String SECRETS_KEY = "ZTJlLW9ubHkta2V5LWUyZS1vbmx5LWtleS0zMmJ5dGU=";

    /** The secret planted in the shared stack's own environment. */
    static final String SHARED_CANARY = "canary-" + UUID.randomUUID();
    private static Stack shared;

    final Infrastructure infra = Infrastructure.get();
    private final String kafka;
    private final String databasePrefix;
    private final Identity identity;
    final ServiceProcess registry;
    final ServiceProcess queue;
    final ServiceProcess execution;
    /** Only started when a test asks for it, so the other end-to-end tests do not pay for a fourth JVM. */
    final ServiceProcess lineage;
    /** Second replicas of execution-service and queue-service on the same database and broker, when asked for. */
    final ServiceProcess executionReplica;
    final ServiceProcess queueReplica;

    Stack() {
        this(false);
    }

    Stack(boolean withLineage) {
        this(withLineage, null, "");
    }

    /**
     * @param kafka bootstrap servers of a broker the test owns, or null for the shared one
     * @param databasePrefix prefix of the services' database names, so a test with its own broker also has databases
     *                       of its own (no read models or ledgers of another broker's events)
     */
    Stack(boolean withLineage, String kafka, String databasePrefix) {
        this(withLineage, kafka, databasePrefix, Identity.get(), Map.of(), Map.of());
    }

    /** @param identity the token issuer the services trust (the test JVM's signing key unless a test brings another) */
    Stack(boolean withLineage, String kafka, String databasePrefix, Identity identity) {
        this(withLineage, kafka, databasePrefix, identity, Map.of(), Map.of());
    }

    private Stack(boolean withLineage, String kafka, String databasePrefix, Identity identity,
                  Map<String, String> registryEnv, Map<String, String> executionEnv) {
        this(withLineage, false, kafka, databasePrefix, identity, registryEnv, executionEnv, Map.of());
    }

    /**
     * A stack with two replicas of execution-service and of queue-service (separate JVMs, one database each, one
     * broker): each execution replica claims batches through its own queue replica.
     */
    static Stack withReplicas(String kafka, String databasePrefix) {
        return new Stack(false, true, kafka, databasePrefix, Identity.get(), Map.of(), Map.of(), Map.of());
    }

    /**
     * A stack on a broker and databases of the test's own whose execution-service gets {@code executionEnv} on top
     * (its runner's script directory, say), for a test that kills and restarts its services.
     */
    static Stack ownBroker(String kafka, String databasePrefix, Map<String, String> executionEnv) {
        return new Stack(false, false, kafka, databasePrefix, Identity.get(), Map.of(), executionEnv, Map.of());
    }

    private Stack(boolean withLineage, boolean replicas, String kafka, String databasePrefix, Identity identity,
                  Map<String, String> registryEnv, Map<String, String> executionEnv, Map<String, String> lineageEnv) {
        this.kafka = kafka != null ? kafka : infra.kafkaBootstrapServers();
        this.databasePrefix = databasePrefix;
        this.identity = identity;
        SignedInByDefault.install();
        Map<String, String> registryExtra = new HashMap<>(Map.of("BATCHYARD_SECRETS_KEY", SECRETS_KEY));
        registryExtra.putAll(registryEnv);
        // Side by side: each JVM's start is mostly waiting on its own database and broker connections, and an
        // execution-service only needs its queue-service's URL (known before it answers), not its readiness.
        registry = ServiceProcess.spawn("registry-service", "registry-service", env("registry", registryExtra));
        queue = ServiceProcess.spawn("queue-service", "queue-service", env("queue",
                Map.of("BATCHYARD_COMPACTION_STORE_ROOT", compactionStore().toString())));
        lineage = withLineage ? ServiceProcess.spawn("lineage-service", "lineage-service", env("lineage", lineageEnv))
                : null;
        Map<String, String> executionExtra = new HashMap<>(Map.of("BATCHYARD_QUEUE_URL", queue.url()));
        if (lineage != null) {
            // a backfill whose roots name columns asks lineage-service which jobs they reach
            executionExtra.put("BATCHYARD_LINEAGE_URL", lineage.url());
        }
        executionExtra.putAll(executionEnv);
        execution = ServiceProcess.spawn("execution-service", "execution-service", env("execution", executionExtra));
        queueReplica = replicas ? ServiceProcess.spawn("queue-service", "queue-service-2", env("queue", Map.of()))
                : null;
        Map<String, String> replicaExtra = new HashMap<>(executionExtra);
        if (replicas) {
            replicaExtra.put("BATCHYARD_QUEUE_URL", queueReplica.url());
        }
        executionReplica = replicas ? ServiceProcess.spawn("execution-service", "execution-service-2",
                env("execution", replicaExtra)) : null;
        try {
            Stream.of(registry, queue, execution, lineage, queueReplica, executionReplica).filter(Objects::nonNull)
                    .forEach(ServiceProcess::ready);
        } catch (RuntimeException e) {
            close(); // no JVM of a stack that never came up outlives the test
            throw e;
        }
    }

    /**
     * The stack the tests that need no broker or settings of their own share (lineage-service included), on the shared
     * broker and databases: started by the first of them, stopped when the test JVM ends. Each such test works in
     * applications and processes of its own, so they do not see each other's runs. A canary secret is planted in the
     * registry's and execution-service's own environment ({@link #SHARED_CANARY}) and execution-service's runner takes
     * its scripts (deployment scripts included, polled every second) from {@link #sharedScriptDir()}, so that the secret canary test can look for it in everything the
     * shared stack writes. Its lineage-service pushes OpenLineage events to {@link OpenLineageReceiver#PORT}.
     */
    static synchronized Stack shared() {
        if (shared == null) {
            Map<String, String> canary = Map.of("CANARY_SECRET", SHARED_CANARY);
            Map<String, String> execution = new HashMap<>(canary);
            execution.put("BATCHYARD_SECRETS_KEY", SECRETS_KEY);
            execution.put("BATCHYARD_RUNNER_SCRIPT_DIR", sharedScriptDir().toString());
            // TriggerEndToEndTest deploys parents: its deployments should not wait the default 10 s for a poll
            execution.put("BATCHYARD_DEPLOY_POLL_INTERVAL", "PT1S");
            // lineage-service pushes OpenLineage events to the receiver OpenLineageEndToEndTest opens on this port;
            // until it does, the events wait on their topic: the push consumer retries the head of each partition,
            // at most a second apart here (its default is 5 s). The push's breaker, opened while nothing listened,
            // waits 30 s before it tries again; the test allows for that and for the backlog of every earlier test.
            Map<String, String> lineage = Map.of("BATCHYARD_LINEAGE_OPENLINEAGE_HTTP_URL",
                    "http://127.0.0.1:" + OpenLineageReceiver.PORT,
                    "BATCHYARD_CONSUMER_RETRY_MAX_BACKOFF", "PT1S");
            Stack stack = new Stack(true, false, null, "", Identity.get(), canary, execution, lineage);
            Runtime.getRuntime().addShutdownHook(new Thread(stack::close, "e2e-shared-stack-stop"));
            shared = stack;
        }
        return shared;
    }

    /** Where the shared stack's runner finds the scripts its stand-alone steps name (created empty). */
    static Path sharedScriptDir() {
        try {
            return Files.createDirectories(Path.of("target", "shared-scripts").toAbsolutePath());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** queue-service's compaction object store (a folder of this stack's own under target/). */
    Path compactionStore() {
        return Path.of("target", "compaction-store", databasePrefix.isEmpty() ? "shared" : databasePrefix)
                .toAbsolutePath();
    }

    String kafka() {
        return kafka;
    }

    /** The database of a service ("registry", "queue", "execution", "lineage"). */
    Infrastructure.Database database(String service) {
        return infra.database(databasePrefix + service);
    }

    private Map<String, String> env(String database, Map<String, String> extra) {
        Infrastructure.Database db = database(database);
        Map<String, String> env = new HashMap<>(extra);
        env.putAll(topicsEnv());
        env.put("QUARKUS_DATASOURCE_JDBC_URL", db.jdbcUrl());
        env.put("QUARKUS_DATASOURCE_REACTIVE_URL", db.reactiveUrl());
        env.put("QUARKUS_DATASOURCE_USERNAME", db.user());
        env.put("QUARKUS_DATASOURCE_PASSWORD", db.password());
        identity.serviceIdentityConfig(database).forEach((key, value) -> env.put(envName(key), value));
        if (database.equals("execution")) {
            // The tests' scripts live in this build's own directories, which only the test's user can reach: jobs run
            // as that user here (the isolation of jobs under their own user is execution-service's JobIsolationTest).
            env.putIfAbsent("BATCHYARD_RUNNER_SWITCH_USER", "false");
            env.putIfAbsent("BATCHYARD_RUNNER_SHARED_USER_ACCEPTED", "true");
        }
        return env;
    }

    /** What every process of the stack needs: the broker, the schema registry and the token issuer to trust. */
    private Map<String, String> topicsEnv() {
        Map<String, String> env = new HashMap<>();
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka);
        env.put("BATCHYARD_SCHEMA_REGISTRY_URL", infra.schemaRegistryUrl());
        identity.serviceConfig().forEach((key, value) -> env.put(envName(key), value));
        return env;
    }

    /**
     * The dashboard as its own process: a reader of this stack's topics that trusts the same token issuer, and reads its
     * runner, compaction and lineage panels from this stack's services.
     */
    ServiceProcess startDashboard() {
        return startDashboard(Map.of());
    }

    /** The dashboard with {@code settings} (Quarkus property names) on top. */
    ServiceProcess startDashboard(Map<String, String> settings) {
        Map<String, String> env = topicsEnv();
        settings.forEach((key, value) -> env.put(envName(key), value));
        // the panels read from the services (the lineage panel only has a service to read when this stack has one)
        env.put("BATCHYARD_EXECUTION_URL", execution.url());
        env.put("BATCHYARD_QUEUE_URL", queue.url());
        if (lineage != null) {
            env.put("BATCHYARD_LINEAGE_URL", lineage.url());
        }
        return ServiceProcess.start("dashboard", env);
    }

    /** The environment variable Quarkus reads a property from. */
    private static String envName(String property) {
        return property.toUpperCase().replaceAll("[^A-Z0-9]", "_");
    }

    @Override
    public void close() {
        if (lineage != null) {
            lineage.close();
        }
        if (executionReplica != null) {
            executionReplica.close();
        }
        if (queueReplica != null) {
            queueReplica.close();
        }
        execution.close();
        queue.close();
        registry.close();
    }
}
