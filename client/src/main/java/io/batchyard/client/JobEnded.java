package io.batchyard.client;

/** HaltJob's or TermJob's answer: the run as it ended ({@code state} SUCCESS or FAILED). */
public record JobEnded(long processId, long instanceExecId, String state, Long targetBatchId, String batchMarking) {
}
