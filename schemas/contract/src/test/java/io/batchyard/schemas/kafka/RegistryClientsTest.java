package io.batchyard.schemas.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apicurio.registry.resolver.config.SchemaResolverConfig;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClosedException;
import java.io.IOException;
import java.net.ConnectException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** When the serdes build the registry client with deadlines, and which failures count as the registry unreachable. */
class RegistryClientsTest {

    private static final Vertx VERTX = Vertx.vertx(new VertxOptions().setUseDaemonThread(true).setEventLoopPoolSize(1));

    @AfterAll
    static void close() {
        VERTX.close();
    }

    private static Map<String, Object> registryOnly() {
        Map<String, Object> config = RegistrySerdeConfig.forRegistry("http://127.0.0.1:1");
        config.put(SchemaResolverConfig.VERTX_INSTANCE, VERTX);
        return config;
    }

    @Test
    void aConfigurationThatNamesOnlyTheRegistryGetsTheClientWithDeadlines() {
        RegistryClients.Client client = RegistryClients.withDeadlines(registryOnly()).orElseThrow();
        assertThat(client.facade()).isNotNull();
        client.web().close();
    }

    @Test
    void credentialsTlsOrAProxyLeaveTheClientToApicurio() {
        for (String key : new String[] {SchemaResolverConfig.AUTH_USERNAME, SchemaResolverConfig.AUTH_CLIENT_ID,
                SchemaResolverConfig.TLS_TRUSTSTORE_LOCATION, SchemaResolverConfig.TLS_TRUST_ALL,
                SchemaResolverConfig.PROXY_HOST, SchemaResolverConfig.HTTP_ADAPTER,
                SchemaResolverConfig.REGISTRY_URL_VERSION}) {
            Map<String, Object> config = registryOnly();
            config.put(key, "x");
            assertThat(RegistryClients.withDeadlines(config)).as(key).isEmpty();
        }
        assertThat(RegistryClients.withDeadlines(new HashMap<>())).isEmpty();
    }

    @Test
    void theDeadlinesAreMillisecondsAndMustBePositive() {
        Map<String, Object> config = new HashMap<>();
        assertThat(RegistryClients.millis(config, RegistryClients.IDLE_TIMEOUT_MS, 10_000)).isEqualTo(10_000);
        config.put(RegistryClients.IDLE_TIMEOUT_MS, " 1500 ");
        assertThat(RegistryClients.millis(config, RegistryClients.IDLE_TIMEOUT_MS, 10_000)).isEqualTo(1500);
        config.put(RegistryClients.IDLE_TIMEOUT_MS, 250);
        assertThat(RegistryClients.millis(config, RegistryClients.IDLE_TIMEOUT_MS, 10_000)).isEqualTo(250);
        config.put(RegistryClients.IDLE_TIMEOUT_MS, "0");
        assertThatThrownBy(() -> RegistryClients.millis(config, RegistryClients.IDLE_TIMEOUT_MS, 10_000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be positive");
        config.put(RegistryClients.IDLE_TIMEOUT_MS, "10s");
        assertThatThrownBy(() -> RegistryClients.millis(config, RegistryClients.IDLE_TIMEOUT_MS, 10_000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("number of milliseconds");
    }

    @Test
    void aConnectionClosedUnderAWaitingRequestIsTheRegistryUnreachableAsIsAnIoFailure() {
        assertThat(EventDeserializer.unreachable(new CompletionException(new HttpClosedException("closed")))).isTrue();
        assertThat(EventDeserializer.unreachable(new RuntimeException(new ConnectException("refused")))).isTrue();
        assertThat(EventDeserializer.unreachable(new RuntimeException(new IOException("reset")))).isTrue();
        assertThat(EventDeserializer.unreachable(new IllegalStateException("404: no such content id"))).isFalse();
    }
}
