package io.batchyard.client.kafka;

import io.batchyard.client.ClientSettings;
import io.batchyard.client.TokenSource;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

/**
 * Where commands go and how long a call waits for its answer.
 *
 * @param bootstrapServers the Kafka brokers ({@code batchyard.kafka.bootstrap-servers})
 * @param registryUrl the schema registry ({@code batchyard.schema-registry.url})
 * @param tokens the bearer token sent in each command's {@code authorization} header, from the same settings as the
 *               REST library ({@code batchyard.token}, {@code batchyard.token.file} or client credentials)
 * @param timeout how long a waiting call waits for its answer, and the bound of each broker and registry exchange
 *                ({@code batchyard.command.timeout-seconds}, default 30)
 * @param kafka further Kafka client settings (security protocol, SASL, …), applied to the producer and the consumer
 */
public record KafkaSettings(String bootstrapServers, String registryUrl, TokenSource tokens, Duration timeout,
                            Map<String, String> kafka) {

    public KafkaSettings {
        kafka = Map.copyOf(kafka);
    }

    /**
     * Settings from the same sources, in the same order, as {@link ClientSettings#fromEnvironment()}: system property,
     * environment variable, then the client's properties file.
     */
    public static KafkaSettings fromEnvironment() {
        return from(ClientSettings.environment());
    }

    /** Settings from a look-up by property name (null when unset), the token from the REST library's settings. */
    public static KafkaSettings from(Function<String, String> setting) {
        TokenSource tokens = ClientSettings.from(setting).tokens();
        String servers = setting.apply("batchyard.kafka.bootstrap-servers");
        String registry = setting.apply("batchyard.schema-registry.url");
        String timeout = setting.apply("batchyard.command.timeout-seconds");
        return new KafkaSettings(servers == null ? "localhost:9092" : servers,
                registry == null ? "http://localhost:8080" : registry, tokens,
                Duration.ofSeconds(timeout == null ? 30 : Long.parseLong(timeout)), Map.of());
    }
}
