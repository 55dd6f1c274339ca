package io.batchyard.client.hive;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class HookSettingsTest {

    @Test
    void defaultsApplyToWhatIsNotSet() {
        HookSettings s = HookSettings.from(Map.<String, String>of()::get, Map.of());
        assertThat(s.configured()).isFalse();
        assertThat(s.topic()).isEqualTo("batchyard.lineage.queries");
        assertThat(s.sendTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(s.pauseAfterFailure()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void bothBrokerAndRegistryAreNeeded() {
        assertThat(HookSettings.from(Map.of(HookSettings.BOOTSTRAP_SERVERS, "k:9092")::get, Map.of()).configured()).isFalse();
        assertThat(HookSettings.from(Map.of(HookSettings.REGISTRY_URL, "http://r:8085")::get, Map.of()).configured()).isFalse();
        assertThat(HookSettings.from(Map.of(HookSettings.BOOTSTRAP_SERVERS, "k:9092", HookSettings.REGISTRY_URL,
                "http://r:8085")::get, Map.of()).configured()).isTrue();
    }

    @Test
    void setValuesAreTakenAndBadNumbersFallBack() {
        HookSettings s = HookSettings.from(Map.of(HookSettings.TOPIC, "lineage-test", HookSettings.SEND_TIMEOUT_MS,
                "1500", HookSettings.PAUSE_AFTER_FAILURE_MS, "ten")::get, Map.of());
        assertThat(s.topic()).isEqualTo("lineage-test");
        assertThat(s.sendTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(s.pauseAfterFailure()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void producerSettingsPassThroughButTheTimeoutsAndBrokerAreTheHooks() {
        HookSettings s = HookSettings.from(Map.of(HookSettings.BOOTSTRAP_SERVERS, "k:9092", HookSettings.REGISTRY_URL,
                "http://r:8085", HookSettings.SEND_TIMEOUT_MS, "2000")::get,
                Map.of("security.protocol", "SASL_SSL", "bootstrap.servers", "elsewhere:1", "max.block.ms", "600000"));
        Properties config = QuerySender.producerConfig(s);
        assertThat(config).containsEntry("security.protocol", "SASL_SSL").containsEntry("bootstrap.servers", "k:9092")
                .containsEntry("max.block.ms", "2000").containsEntry("delivery.timeout.ms", "2000")
                .containsEntry("compression.type", "none");
    }
}
