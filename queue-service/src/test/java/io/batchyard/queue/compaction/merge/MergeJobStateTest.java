package io.batchyard.queue.compaction.merge;

import static io.batchyard.queue.compaction.merge.MergeJobState.DEAD;
import static io.batchyard.queue.compaction.merge.MergeJobState.ONGOING;
import static io.batchyard.queue.compaction.merge.MergeJobState.PENDING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.queue.compaction.merge.MergeJobState.Event;
import org.junit.jupiter.api.Test;

class MergeJobStateTest {

    @Test
    void onlyTheTableTransitionsAreAllowed() {
        assertThat(PENDING.next(Event.CLAIM)).isEqualTo(ONGOING);
        assertThat(ONGOING.next(Event.CONTINUE)).isEqualTo(PENDING);
        assertThat(ONGOING.next(Event.RETRY)).isEqualTo(PENDING);
        assertThat(ONGOING.next(Event.DEAD_LETTER)).isEqualTo(DEAD);
        assertThat(DEAD.next(Event.REVIVE)).isEqualTo(PENDING);
        assertThat(PENDING.on(Event.CONTINUE)).isEmpty();
        assertThat(DEAD.on(Event.CLAIM)).as("a dead job is never claimed").isEmpty();
        assertThatThrownBy(() -> ONGOING.next(Event.CLAIM)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theAttemptCounterDeadLettersAtTheMaximum() {
        assertThat(MergeJobState.afterFailure(1, 3)).isEqualTo(Event.RETRY);
        assertThat(MergeJobState.afterFailure(2, 3)).isEqualTo(Event.RETRY);
        assertThat(MergeJobState.afterFailure(3, 3)).isEqualTo(Event.DEAD_LETTER);
    }
}
