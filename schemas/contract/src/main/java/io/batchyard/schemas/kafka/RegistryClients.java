package io.batchyard.schemas.kafka;

import io.apicurio.registry.client.RegistryClientFactory;
import io.apicurio.registry.client.common.DefaultVertxInstance;
import io.apicurio.registry.client.common.RegistryClientOptions;
import io.apicurio.registry.resolver.client.RegistryClientFacade;
import io.apicurio.registry.resolver.client.RegistryClientFacadeImpl;
import io.apicurio.registry.resolver.config.SchemaResolverConfig;
import io.vertx.core.Vertx;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.lang.annotation.Annotation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The registry client of Batchyard's serdes: Apicurio's client over a Vert.x web client that gives up on a registry
 * that stops answering.
 *
 * <p>Apicurio's own client waits for an answer without a limit and has no setting for one. A registry that accepts the
 * connection and then says nothing (a frozen process, a half-open connection after its machine died) would hold the
 * thread that asked until the connection closed, if ever: the outbox relay's pass, and with it every event of the
 * service, or a consumer's poll. Here a connection on which nothing has been received or sent for
 * {@value #DEFAULT_IDLE_TIMEOUT_MS} ms is closed, which fails the request waiting on it, and a connection that is not
 * made within {@value #DEFAULT_CONNECT_TIMEOUT_MS} ms fails too. The callers then treat the registry as unreachable:
 * the deserializer waits and tries again, the relay tries its pass again. An answer that is slow but flowing is not
 * cut.
 *
 * <p>The client is only built here when the configuration names nothing but the registry (and perhaps the Vert.x to
 * use). With credentials, TLS or proxy settings, another HTTP adapter or the v2 API, Apicurio builds its own client
 * from them, without these deadlines: the two ways of building a client exclude each other in Apicurio, and those
 * settings are its to apply.
 */
final class RegistryClients {

    /** Milliseconds without a byte either way after which a connection to the registry is closed. */
    static final String IDLE_TIMEOUT_MS = "batchyard.registry.idle-timeout-ms";
    static final int DEFAULT_IDLE_TIMEOUT_MS = 10_000;
    /** Milliseconds to make a connection to the registry. */
    static final String CONNECT_TIMEOUT_MS = "batchyard.registry.connect-timeout-ms";
    static final int DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

    /** Settings with which Apicurio must build the client itself. */
    private static final List<String> CLIENT_SETTINGS_APICURIO_APPLIES = List.of(
            SchemaResolverConfig.AUTH_TOKEN_ENDPOINT, SchemaResolverConfig.AUTH_CLIENT_ID,
            SchemaResolverConfig.AUTH_USERNAME, SchemaResolverConfig.TLS_TRUSTSTORE_LOCATION,
            SchemaResolverConfig.TLS_CERTIFICATES, SchemaResolverConfig.TLS_TRUST_ALL,
            SchemaResolverConfig.TLS_VERIFY_HOST, SchemaResolverConfig.PROXY_HOST, SchemaResolverConfig.HTTP_ADAPTER,
            // the client built here speaks the registry's v3 API; a configuration that asks for v2 gets Apicurio's
            SchemaResolverConfig.REGISTRY_URL_VERSION);

    /** A registry client and the web client under it, which its owner closes with the serde. */
    record Client(RegistryClientFacade facade, WebClient web) {
    }

    private RegistryClients() {
    }

    /** The client for this serde configuration, or empty when Apicurio must build it (see the class comment). */
    static Optional<Client> withDeadlines(Map<String, ?> config) {
        Object url = config.get(SchemaResolverConfig.REGISTRY_URL);
        if (url == null || CLIENT_SETTINGS_APICURIO_APPLIES.stream().anyMatch(config::containsKey)) {
            return Optional.empty();
        }
        Vertx vertx = config.get(SchemaResolverConfig.VERTX_INSTANCE) instanceof Vertx given ? given : vertx();
        WebClient web = WebClient.create(vertx, new WebClientOptions()
                .setConnectTimeout(millis(config, CONNECT_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS))
                .setIdleTimeout(millis(config, IDLE_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS))
                .setIdleTimeoutUnit(TimeUnit.MILLISECONDS));
        RegistryClientOptions options = RegistryClientOptions.create(url.toString(), vertx).customWebClient(web);
        return Optional.of(new Client(new RegistryClientFacadeImpl(RegistryClientFactory.create(options)), web));
    }

    static int millis(Map<String, ?> config, String key, int fallback) {
        Object value = config.get(key);
        if (value == null) {
            return fallback;
        }
        int millis;
        try {
            millis = value instanceof Number n ? n.intValue() : Integer.parseInt(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number of milliseconds, not '" + value + "'");
        }
        if (millis <= 0) {
            throw new IllegalArgumentException(key + " must be positive, not " + millis);
        }
        return millis;
    }

    /**
     * The application's Vert.x when there is a CDI container (a Quarkus service), as Apicurio would pick it: its
     * threads and connections then end with the application. Anywhere else, Apicurio's shared instance.
     */
    private static Vertx vertx() {
        try {
            Class<?> cdi = Class.forName("jakarta.enterprise.inject.spi.CDI");
            Class<?> instance = Class.forName("jakarta.enterprise.inject.Instance");
            Object container = cdi.getMethod("current").invoke(null);
            Object selected = instance.getMethod("select", Class.class, Annotation[].class)
                    .invoke(container, Vertx.class, new Annotation[0]);
            if (Boolean.TRUE.equals(instance.getMethod("isResolvable").invoke(selected))) {
                return (Vertx) instance.getMethod("get").invoke(selected);
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // No CDI on the class path, or no container running: not an application with a Vert.x of its own.
        }
        return DefaultVertxInstance.get();
    }
}
