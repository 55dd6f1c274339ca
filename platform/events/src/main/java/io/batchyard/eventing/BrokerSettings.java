package io.batchyard.eventing;

import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * The broker settings the Kafka clients Batchyard builds itself (the outbox relay's producer, the readiness check's
 * admin client) share with the messaging channels: Quarkus' merged {@code kafka.*} configuration (KAFKA_* in the
 * environment), so that bootstrap servers, security protocol, SASL and TLS settings are configured once for every
 * client of a service. Each client takes only the keys its kind knows: the map also holds consumer settings (Quarkus
 * adds {@code group.id}), which a producer or an admin client would log as unknown. Public for the services' own
 * clients of other brokers' topics (lineage-service's OpenLineage producer).
 */
public final class BrokerSettings {

    /** The name of Quarkus' bean with the merged {@code kafka.*} configuration. */
    public static final String DEFAULT_BROKER = "default-kafka-broker";

    private BrokerSettings() {
    }

    /** The settings of {@code broker} that a client configured by {@code configNames} understands. */
    public static Properties forClient(Map<String, Object> broker, Set<String> configNames) {
        Properties props = new Properties();
        broker.forEach((key, value) -> {
            if (configNames.contains(key) && value != null) {
                props.put(key, value);
            }
        });
        return props;
    }
}
