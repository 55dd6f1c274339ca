package io.batchyard.execution.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.readmodel.ProcessDefinition;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The all-enqueuers rule: every enqueuing process of the live steps must have delivered. */
class AllEnqueuersTest {

    private static ProcessDefinition step(long id, boolean deleted, Long... enqueuers) {
        return new ProcessDefinition(id, 1L, "s" + id, 12, true, List.of(enqueuers), null, List.of(1L), deleted, 2,
                List.of());
    }

    @Test
    void theEnqueuersAreThoseOfEveryLiveStepOnce() {
        List<ProcessDefinition> steps = List.of(step(2, false, 10L, 11L), step(3, false, 11L, 12L),
                step(4, true, 13L), step(5, false));
        assertThat(AllEnqueuers.required(steps)).containsExactly(10L, 11L, 12L);
    }

    @Test
    void dueOnlyWhenEveryEnqueuerDelivered() {
        Set<Long> required = Set.of(10L, 11L, 12L);
        assertThat(AllEnqueuers.due(required, List.of())).isFalse();
        assertThat(AllEnqueuers.due(required, List.of(10L, 12L))).isFalse();
        assertThat(AllEnqueuers.missing(required, List.of(10L, 12L))).containsExactly(11L);
        assertThat(AllEnqueuers.due(required, List.of(12L, 10L, 11L))).isTrue();
        // a delivery from a process that is not (or no longer) an enqueuer neither helps nor hinders
        assertThat(AllEnqueuers.due(required, List.of(10L, 11L, 12L, 99L))).isTrue();
        assertThat(AllEnqueuers.missing(required, List.of(99L))).containsExactly(10L, 11L, 12L);
    }

    @Test
    void aParentWithoutEnqueuersIsNeverDue() {
        assertThat(AllEnqueuers.due(Set.of(), List.of(10L))).isFalse();
        assertThat(AllEnqueuers.required(List.of(step(2, false)))).isEmpty();
    }
}
