package io.batchyard.queue.compaction.partition;

import static io.batchyard.queue.compaction.partition.QuarantineState.DROPPED;
import static io.batchyard.queue.compaction.partition.QuarantineState.QUARANTINED;
import static io.batchyard.queue.compaction.partition.QuarantineState.RELEASED;
import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.queue.compaction.partition.QuarantineState.Event;
import org.junit.jupiter.api.Test;

class QuarantineStateTest {

    @Test
    void onlyAnOperatorEndsAQuarantineAndADropIsFinal() {
        assertThat(QUARANTINED.on(Event.RELEASE)).contains(RELEASED);
        assertThat(QUARANTINED.on(Event.DROP)).contains(DROPPED);
        assertThat(RELEASED.on(Event.QUARANTINE)).as("released but still bad").contains(QUARANTINED);
        assertThat(RELEASED.allows(Event.DROP)).as("already queued for merging").isFalse();
        for (Event e : Event.values()) {
            assertThat(DROPPED.allows(e)).isFalse();
        }
    }

    @Test
    void eachEventLeadsToOneStateSoARepeatIsRecognised() {
        assertThat(QuarantineState.target(Event.RELEASE)).isEqualTo(RELEASED);
        assertThat(QuarantineState.target(Event.DROP)).isEqualTo(DROPPED);
        assertThat(QuarantineState.target(Event.QUARANTINE)).isEqualTo(QUARANTINED);
    }
}
