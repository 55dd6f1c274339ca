package io.batchyard.queue.compaction.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class MergeSettingsTest {

    @Test
    void theDefaultsAreTheReferenceValues() {
        MergeSettings d = MergeSettings.defaults();
        assertThat(d.sizeCap()).isEqualTo(128L * 1024 * 1024);
        assertThat(d.batchSize()).isEqualTo(2000);
        assertThat(d.jobTimeout()).isEqualTo(Duration.ofSeconds(600));
        assertThat(d.heartbeatInterval()).isLessThan(d.jobTimeout());
    }

    @Test
    void aHeartbeatNoShorterThanTheTimeoutIsRefused() {
        assertThatThrownBy(() -> MergeSettings.defaults().withLease(Duration.ofSeconds(600), Duration.ofSeconds(600)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heartbeat");
        assertThatThrownBy(() -> MergeSettings.defaults().withBatchSize(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
