package io.batchyard.execution.lifecycle;

import java.time.OffsetDateTime;

/** One recorded transition of a run. */
public record Transition(Integer fromState, int toState, OffsetDateTime changedAt, String cause) {
}
