package io.batchyard.execution.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.batchyard.readmodel.ProcessDefinition;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How many batches per step a run the runner starts claims: the parent's own max batch, else one. */
class MaxBatchTest {

    private static ProcessDefinition parent(List<ProcessDefinition.Property> properties) {
        return new ProcessDefinition(7, null, "job", 2, true, List.of(), null, List.of(8L), false, 2, properties);
    }

    private static RunnerJob policy(Integer maxBatchSize) {
        return new RunnerJob(7, true, null, false, false, maxBatchSize, false, RunnerJob.Retry.DEFAULT,
                RunnerJob.Context.NONE, 4, 3600, RunnerJob.Hooks.NONE, List.of(), null);
    }

    private static List<ProcessDefinition.Property> maxBatch(String value) {
        return List.of(new ProcessDefinition.Property("runner", "max-batch", value));
    }

    @Test
    void withoutAMaxBatchOfItsOwnARunClaimsOneBatchPerStep() {
        assertThat(MaxBatch.of(parent(List.of()), policy(null))).isEqualTo(1);
    }

    @Test
    void theRunPolicysMaxBatchSizeThenThePropertyBeforeItSayHowMany() {
        assertThat(MaxBatch.of(parent(List.of()), policy(3))).isEqualTo(3);
        assertThat(MaxBatch.of(parent(maxBatch("10")), policy(3))).isEqualTo(10);
        assertThat(MaxBatch.of(parent(maxBatch(" 5 ")), policy(null))).isEqualTo(5);
        // a property of another group is not the runner's
        assertThat(MaxBatch.of(parent(List.of(new ProcessDefinition.Property("param", "max-batch", "9"))),
                policy(null))).isEqualTo(1);
    }

    @Test
    void aPropertyThatIsNoWholeNumberOfAtLeastOneIsRefusedWithItsValue() {
        for (String bad : List.of("lots", "0", "-2", "1.5", "")) {
            assertThatThrownBy(() -> MaxBatch.of(parent(maxBatch(bad)), policy(3)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("property runner/max-batch of parent 7 must be a whole number of at least 1, got '"
                            + bad + "'");
        }
    }
}
