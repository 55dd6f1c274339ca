package io.batchyard.teststack;

import io.batchyard.teststack.identity.Identity;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.HashMap;
import java.util.Map;

/**
 * The one test resource every service uses. It gives the application a fresh database of its own (named by the
 * {@code database} init arg) on the shared PostgreSQL, the shared Kafka broker, and the token issuer to trust. Where those come from is decided
 * once per JVM by {@link Infrastructure}.
 *
 * <pre>{@code @QuarkusTest @WithTestResource(value = BatchyardTestStack.class,
 *     initArgs = @ResourceArg(name = "database", value = "registry"))}</pre>
 */
public class BatchyardTestStack implements QuarkusTestResourceLifecycleManager {

    private String database = "batchyard";

    @Override
    public void init(Map<String, String> initArgs) {
        database = initArgs.getOrDefault("database", database);
    }

    @Override
    public Map<String, String> start() {
        Infrastructure infra = Infrastructure.get();
        Infrastructure.Database db = infra.database(database);
        Map<String, String> config = new HashMap<>();
        // Flyway migrates over JDBC; everything else runs on the reactive client, against the same database.
        config.put("quarkus.datasource.jdbc.url", db.jdbcUrl());
        config.put("quarkus.datasource.reactive.url", db.reactiveUrl());
        config.put("quarkus.datasource.username", db.user());
        config.put("quarkus.datasource.password", db.password());
        config.put("quarkus.datasource.devservices.enabled", "false");
        config.put("kafka.bootstrap.servers", infra.kafkaBootstrapServers());
        config.put("quarkus.kafka.devservices.enabled", "false");
        config.put("batchyard.schema-registry.url", infra.schemaRegistryUrl());
        // The services trust the test issuer; every test call carries a token from it (SignedInByDefault).
        config.putAll(Identity.get().serviceConfig());
        config.putAll(Identity.get().serviceIdentityConfig(database));
        return config;
    }

    /** The database this resource gave the running @QuarkusTest application, read back from its configuration. */
    public static Infrastructure.Database database() {
        var config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
        return new Infrastructure.Database(config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
    }

    @Override
    public void stop() {
        // The infrastructure outlives one application: it is shared by every test class of the JVM and stopped by a
        // shutdown hook.
    }
}
