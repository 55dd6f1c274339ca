package io.batchyard.execution.runner;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.execution.runs.FailureReason;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** What TermJob records when one of the runner's commands fails. */
class StepFailureReasonTest {

    @Test
    void anExitedCommandGivesItsExitCode() {
        CommandResult exited = new CommandResult(3, false, "", "locked", Duration.ofMillis(5), true);
        assertThat(WorkflowExecution.reasonOf("step 7 (load.sh)", exited))
                .isEqualTo(new FailureReason(3, "step 7 (load.sh) exited with code 3"));
    }

    @Test
    void aKilledOrNeverStartedCommandHasNoCodeOnlyWhy() {
        CommandResult killed = new CommandResult(-1, true, "", "", Duration.ofSeconds(2), true);
        assertThat(WorkflowExecution.reasonOf("step 7 (slow.sh)", killed))
                .isEqualTo(new FailureReason(null, "step 7 (slow.sh) was killed after its timeout of 2 s"));
        CommandResult missing = CommandResult.notStarted("script 'x.sh' not found in the script directory /s\n");
        assertThat(missing.succeeded()).isFalse();
        assertThat(WorkflowExecution.reasonOf("step 7 (x.sh)", missing)).isEqualTo(new FailureReason(null,
                "step 7 (x.sh) could not be started: script 'x.sh' not found in the script directory /s"));
    }
}
