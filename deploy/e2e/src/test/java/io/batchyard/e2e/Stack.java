package io.batchyard.e2e;

import io.batchyard.teststack.Infrastructure;
import java.util.HashMap;
import java.util.Map;

/** The whole system for an end-to-end test: shared PostgreSQL and Kafka, and each service as its own process. */
final class Stack implements AutoCloseable {

    final Infrastructure infra = Infrastructure.get();
    final ServiceProcess registry;
    final ServiceProcess queue;
    final ServiceProcess execution;
    /** Only started when a test asks for it, so the other end-to-end tests do not pay for a fourth JVM. */
    final ServiceProcess lineage;

    Stack() {
        this(false);
    }

    Stack(boolean withLineage) {
        registry = ServiceProcess.start("registry-service", env("registry",
                Map.of("BATCHYARD_SECRETS_KEY", "ZTJlLW9ubHkta2V5LWUyZS1vbmx5LWtleS0zMmJ5dGU=")));
        queue = ServiceProcess.start("queue-service", env("queue", Map.of()));
        execution = ServiceProcess.start("execution-service", env("execution",
                Map.of("BATCHYARD_QUEUE_URL", queue.url())));
        lineage = withLineage ? ServiceProcess.start("lineage-service", env("lineage", Map.of())) : null;
    }

    String kafka() {
        return infra.kafkaBootstrapServers();
    }

    private Map<String, String> env(String database, Map<String, String> extra) {
        Infrastructure.Database db = infra.database(database);
        Map<String, String> env = new HashMap<>(extra);
        env.put("QUARKUS_DATASOURCE_JDBC_URL", db.jdbcUrl());
        env.put("QUARKUS_DATASOURCE_USERNAME", db.user());
        env.put("QUARKUS_DATASOURCE_PASSWORD", db.password());
        env.put("KAFKA_BOOTSTRAP_SERVERS", infra.kafkaBootstrapServers());
        return env;
    }

    @Override
    public void close() {
        if (lineage != null) {
            lineage.close();
        }
        execution.close();
        queue.close();
        registry.close();
    }
}
