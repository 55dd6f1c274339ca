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
    private String s3ConfigPrefix;

    /**
     * {@code database}: the name of the application's database; {@code s3-config-prefix} (optional): the prefix under
     * which the application reads an S3 store's {@code enabled}, {@code endpoint}, {@code region},
     * {@code access-key-id}, {@code secret-access-key} and {@code path-style} — given, the shared S3 store is started
     * and handed to it ({@link Infrastructure#objectStore()}).
     */
    @Override
    public void init(Map<String, String> initArgs) {
        database = initArgs.getOrDefault("database", database);
        s3ConfigPrefix = initArgs.get("s3-config-prefix");
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
        if (s3ConfigPrefix != null) {
            ObjectStoreServer.Endpoint s3 = infra.objectStore();
            config.put(s3ConfigPrefix + ".enabled", "true");
            config.put(s3ConfigPrefix + ".endpoint", s3.url());
            config.put(s3ConfigPrefix + ".region", s3.region());
            config.put(s3ConfigPrefix + ".access-key-id", s3.accessKey());
            config.put(s3ConfigPrefix + ".secret-access-key", s3.secretKey());
            config.put(s3ConfigPrefix + ".path-style", "true");
        }
        return config;
    }

    /** The database this resource gave the running @QuarkusTest application, read back from its configuration. */
    public static Infrastructure.Database database() {
        var config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
        return new Infrastructure.Database(config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                // a database without passwords has an empty one, which the configuration reads as absent
                config.getOptionalValue("quarkus.datasource.password", String.class).orElse(""));
    }

    @Override
    public void stop() {
        // The infrastructure outlives one application: it is shared by every test class of the JVM and stopped by a
        // shutdown hook.
    }
}
