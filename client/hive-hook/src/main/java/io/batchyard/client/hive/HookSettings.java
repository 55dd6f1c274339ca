package io.batchyard.client.hive;

import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

/**
 * Where and how the hook sends, read from the job configuration (HiveConf: hive-site.xml, the Oozie action's
 * configuration, or {@code SET} in the session).
 *
 * @param bootstrapServers  Kafka bootstrap servers, or null when not configured (then nothing is sent)
 * @param registryUrl       base URL of the schema registry, or null when not configured (then nothing is sent)
 * @param topic             the topic lineage-service reads registered queries from
 * @param sendTimeout       the longest a query waits for the registry, and as long again for the broker
 * @param pauseAfterFailure after a failed send, queries are dropped without trying for this long
 * @param kafka             further producer settings (security protocol, SASL, TLS), by Kafka's own names
 */
public record HookSettings(String bootstrapServers, String registryUrl, String topic, Duration sendTimeout,
                           Duration pauseAfterFailure, Map<String, String> kafka) {

    public static final String BOOTSTRAP_SERVERS = "batchyard.lineage.bootstrap.servers";
    public static final String REGISTRY_URL = "batchyard.schema-registry.url";
    public static final String TOPIC = "batchyard.lineage.topic";
    public static final String SEND_TIMEOUT_MS = "batchyard.lineage.send-timeout-ms";
    public static final String PAUSE_AFTER_FAILURE_MS = "batchyard.lineage.pause-after-failure-ms";
    /** Prefix of producer settings passed to Kafka as they are, without the prefix. */
    public static final String KAFKA_PREFIX = "batchyard.lineage.kafka.";

    static final String DEFAULT_TOPIC = "batchyard.lineage.queries";
    static final Duration DEFAULT_SEND_TIMEOUT = Duration.ofSeconds(5);
    static final Duration DEFAULT_PAUSE = Duration.ofSeconds(60);

    public HookSettings {
        kafka = Map.copyOf(kafka);
    }

    /**
     * @param conf  the configuration by property name
     * @param kafka the properties under {@link #KAFKA_PREFIX}, with the prefix removed
     */
    public static HookSettings from(Function<String, String> conf, Map<String, String> kafka) {
        return new HookSettings(blankToNull(conf.apply(BOOTSTRAP_SERVERS)), blankToNull(conf.apply(REGISTRY_URL)),
                orDefault(blankToNull(conf.apply(TOPIC)), DEFAULT_TOPIC),
                millis(conf.apply(SEND_TIMEOUT_MS), DEFAULT_SEND_TIMEOUT),
                millis(conf.apply(PAUSE_AFTER_FAILURE_MS), DEFAULT_PAUSE), kafka);
    }

    /** Both the broker and the registry are named; without either the hook stays silent. */
    public boolean configured() {
        return bootstrapServers != null && registryUrl != null;
    }

    private static Duration millis(String value, Duration fallback) {
        Long ms = QueryExtraction.positiveId(value);
        return ms == null ? fallback : Duration.ofMillis(ms);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    private static String orDefault(String value, String fallback) {
        return value == null ? fallback : value;
    }
}
