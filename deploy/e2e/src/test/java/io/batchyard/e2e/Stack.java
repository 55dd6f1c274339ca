package io.batchyard.e2e;

import io.batchyard.teststack.identity.Identity;
import io.batchyard.teststack.identity.SignedInByDefault;

import io.batchyard.teststack.Infrastructure;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** The whole system for an end-to-end test: shared PostgreSQL and Kafka, and each service as its own process. */
final class Stack implements AutoCloseable {

    /** The registry's secrets key (base64 of 32 bytes), fixed for the tests. */
    static final String SECRETS_KEY = "ZTJlLW9ubHkta2V5LWUyZS1vbmx5LWtleS0zMmJ5dGU=";

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

    /** A stack whose registry and execution-service get {@code registryEnv} and {@code executionEnv} on top. */
    Stack(Map<String, String> registryEnv, Map<String, String> executionEnv) {
        this(false, null, "", Identity.get(), registryEnv, executionEnv);
    }

    private Stack(boolean withLineage, String kafka, String databasePrefix, Identity identity,
                  Map<String, String> registryEnv, Map<String, String> executionEnv) {
        this(withLineage, false, kafka, databasePrefix, identity, registryEnv, executionEnv);
    }

    /**
     * A stack with two replicas of execution-service and of queue-service (separate JVMs, one database each, one
     * broker): each execution replica claims batches through its own queue replica.
     */
    static Stack withReplicas(String kafka, String databasePrefix) {
        return new Stack(false, true, kafka, databasePrefix, Identity.get(), Map.of(), Map.of());
    }

    private Stack(boolean withLineage, boolean replicas, String kafka, String databasePrefix, Identity identity,
                  Map<String, String> registryEnv, Map<String, String> executionEnv) {
        this.kafka = kafka != null ? kafka : infra.kafkaBootstrapServers();
        this.databasePrefix = databasePrefix;
        this.identity = identity;
        SignedInByDefault.install();
        Map<String, String> registryExtra = new HashMap<>(Map.of("BATCHYARD_SECRETS_KEY", SECRETS_KEY));
        registryExtra.putAll(registryEnv);
        registry = ServiceProcess.start("registry-service", env("registry", registryExtra));
        queue = ServiceProcess.start("queue-service", env("queue", Map.of("BATCHYARD_COMPACTION_STORE_ROOT",
                compactionStore().toString())));
        Map<String, String> executionExtra = new HashMap<>(Map.of("BATCHYARD_QUEUE_URL", queue.url()));
        executionExtra.putAll(executionEnv);
        execution = ServiceProcess.start("execution-service", env("execution", executionExtra));
        lineage = withLineage ? ServiceProcess.start("lineage-service", env("lineage", Map.of())) : null;
        queueReplica = replicas ? ServiceProcess.start("queue-service", "queue-service-2", env("queue", Map.of()))
                : null;
        Map<String, String> replicaExtra = new HashMap<>(executionExtra);
        if (replicas) {
            replicaExtra.put("BATCHYARD_QUEUE_URL", queueReplica.url());
        }
        executionReplica = replicas ? ServiceProcess.start("execution-service", "execution-service-2",
                env("execution", replicaExtra)) : null;
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
