package io.batchyard.execution.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ExecStateTest {

    @Test
    void onlyARunningRunMovesAndOnlyToAnEnd() {
        assertThat(ExecState.RUNNING.canBecome(ExecState.SUCCESS)).isTrue();
        assertThat(ExecState.RUNNING.canBecome(ExecState.FAILED)).isTrue();
        assertThat(ExecState.RUNNING.canBecome(ExecState.KILLED)).isTrue();
        assertThat(ExecState.RUNNING.canBecome(ExecState.RUNNING)).isFalse();
        for (ExecState end : new ExecState[] {ExecState.SUCCESS, ExecState.FAILED, ExecState.KILLED}) {
            assertThat(end.isTerminal()).isTrue();
            for (ExecState any : ExecState.values()) {
                assertThat(end.canBecome(any)).as(end + " -> " + any).isFalse();
            }
        }
        assertThat(ExecState.of(6)).isEqualTo(ExecState.FAILED);
    }
}
