package io.batchyard.client;

/** InitStep's answer: the step's run. */
public record StepStart(long subInstanceExecId, long subProcessId) {
}
