package io.batchyard.queue.consumption;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.queue.consumption.StepMarks.Mark;
import org.junit.jupiter.api.Test;

class StepMarksTest {

    @Test
    void aStartAndAnEndOfOneStepsRowsBecomeOneMarkThatDoesBoth() {
        StepMarks marks = new StepMarks();
        marks.started(11, 500);
        marks.ended(11, 500);
        assertThat(marks.drain()).containsExactly(new Mark(11, 500, true, true));
    }

    @Test
    void eachStepAndRunKeepsItsOwnMarkInTheOrderFirstSeen() {
        StepMarks marks = new StepMarks();
        marks.started(12, 500);
        marks.started(11, 501);
        marks.ended(12, 500);
        marks.ended(12, 499);
        assertThat(marks.drain()).containsExactly(new Mark(12, 500, true, true), new Mark(11, 501, true, false),
                new Mark(12, 499, false, true));
    }

    @Test
    void drainingLeavesNothingToMarkTwice() {
        StepMarks marks = new StepMarks();
        marks.ended(11, 500);
        assertThat(marks.isEmpty()).isFalse();
        assertThat(marks.drain()).hasSize(1);
        assertThat(marks.isEmpty()).isTrue();
        assertThat(marks.drain()).isEmpty();
    }
}
