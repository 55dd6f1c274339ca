package io.batchyard.execution.runner;

/** A CDI event fired when the runner is done with a parent's run (or cycle), whatever its outcome. */
public record RunEnded(long processId) {
}
