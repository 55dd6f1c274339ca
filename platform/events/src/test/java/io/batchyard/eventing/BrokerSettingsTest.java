package io.batchyard.eventing;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;

/**
 * The Kafka clients Batchyard builds itself take the broker settings the channels take ({@code kafka.*}, see the test
 * application.properties), so that a secured broker is configured once; their own settings still win.
 */
@EventingQuarkusTest
class BrokerSettingsTest {

    @Inject
    OutboxRelay relay;

    @Inject
    @Readiness
    BrokerReadiness readiness;

    @Inject
    @Identifier(BrokerSettings.DEFAULT_BROKER)
    Map<String, Object> broker;

    @Test
    void theRelaysProducerAndTheReadinessAdminClientTakeTheChannelsBrokerSettings() {
        // What the channels get: the test's settings, and a consumer group Quarkus adds from the application name.
        assertThat(broker).containsEntry("security.protocol", "PLAINTEXT").containsKey("group.id");

        Properties producer = relay.producerConfig();
        Properties admin = readiness.adminConfig();
        for (Properties client : List.of(producer, admin)) {
            assertThat(client).containsEntry("bootstrap.servers", broker.get("bootstrap.servers"))
                    .containsEntry("security.protocol", "PLAINTEXT")
                    .as("a consumer setting, unknown to a producer and an admin client").doesNotContainKey("group.id");
        }
        // kafka.request.timeout.ms=40000 does not override what bounds the relay's pass and the readiness probe.
        assertThat(producer).containsEntry("request.timeout.ms", "15000").containsEntry("acks", "all")
                .containsEntry("enable.idempotence", "true");
        assertThat(admin).containsEntry("request.timeout.ms", 2000);
    }
}
