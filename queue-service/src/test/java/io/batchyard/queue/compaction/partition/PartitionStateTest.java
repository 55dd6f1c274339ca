package io.batchyard.queue.compaction.partition;

import static io.batchyard.queue.compaction.partition.PartitionState.CLOSED;
import static io.batchyard.queue.compaction.partition.PartitionState.LIVE;
import static io.batchyard.queue.compaction.partition.PartitionState.NEW;
import static io.batchyard.queue.compaction.partition.PartitionState.SWITCHED;
import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.queue.compaction.partition.PartitionState.Step;
import org.junit.jupiter.api.Test;

class PartitionStateTest {

    @Test
    void theStateFollowsFromTheColumns() {
        assertThat(PartitionState.of(false, null, -1)).isEqualTo(NEW);
        assertThat(PartitionState.of(false, null, 0)).isEqualTo(LIVE);
        assertThat(PartitionState.of(false, 7L, 0)).isEqualTo(CLOSED);
        assertThat(PartitionState.of(true, 7L, 9)).isEqualTo(SWITCHED);
    }

    @Test
    void aPartitionSwitchesOnlyAfterClosingAndNeverReopens() {
        assertThat(NEW.on(Step.SWITCH)).isEmpty();
        assertThat(LIVE.on(Step.SWITCH)).isEmpty();
        assertThat(LIVE.on(Step.CLOSE)).contains(CLOSED);
        assertThat(CLOSED.on(Step.SWITCH)).contains(SWITCHED);
        assertThat(SWITCHED.on(Step.CLOSE)).isEmpty();
        assertThat(SWITCHED.on(Step.PUBLISH_LIVE)).as("a switched partition never goes back to live/").isEmpty();
        assertThat(SWITCHED.allows(Step.PUBLISH_MANIFEST)).isTrue();
    }
}
