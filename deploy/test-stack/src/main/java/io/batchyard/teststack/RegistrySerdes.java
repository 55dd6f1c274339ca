package io.batchyard.teststack;

import io.apicurio.registry.resolver.config.SchemaResolverConfig;
import io.batchyard.schemas.kafka.EventDeserializer;
import io.batchyard.schemas.kafka.EventSerializer;
import io.batchyard.schemas.kafka.RegistrySerdeConfig;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.util.Map;

/**
 * The serdes a test uses to write and read events through the schema registry, on a Vert.x of the test stack's own.
 *
 * <p>Left to itself, the registry client takes the Vert.x of the running application from CDI. A test JVM boots the
 * application again for each test profile and closes the former Vert.x; a serde that was made before a restart, or a
 * client that found a stale CDI container, then hands its request to a closed Vert.x, and the call never returns
 * (seen as a test hung in {@code EventProbe.poll}, with no connection to the registry). This Vert.x lives as long as
 * the test JVM, on daemon threads.
 */
public final class RegistrySerdes {

    private static final class Holder {
        static final Vertx VERTX = Vertx.vertx(new VertxOptions().setUseDaemonThread(true).setEventLoopPoolSize(1)
                .setWorkerPoolSize(2));
    }

    private RegistrySerdes() {
    }

    /** A deserializer for the registry at {@code registryBaseUrl}. */
    public static EventDeserializer deserializer(String registryBaseUrl) {
        EventDeserializer deserializer = new EventDeserializer();
        deserializer.configure(config(registryBaseUrl), false);
        return deserializer;
    }

    /** A serializer for the registry at {@code registryBaseUrl}. */
    public static EventSerializer serializer(String registryBaseUrl) {
        EventSerializer serializer = new EventSerializer();
        serializer.configure(config(registryBaseUrl), false);
        return serializer;
    }

    /**
     * The serde configuration {@link #serializer} and {@link #deserializer} use, for a test that configures a serde
     * of its own (a generic Avro one, say): the registry at {@code registryBaseUrl} and this Vert.x. A fresh map.
     */
    public static Map<String, Object> config(String registryBaseUrl) {
        Map<String, Object> config = RegistrySerdeConfig.forRegistry(registryBaseUrl);
        config.put(SchemaResolverConfig.VERTX_INSTANCE, Holder.VERTX);
        return config;
    }
}
