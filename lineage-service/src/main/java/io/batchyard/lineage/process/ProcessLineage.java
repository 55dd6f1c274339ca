package io.batchyard.lineage.process;

import java.time.OffsetDateTime;
import java.util.List;

/** A process's runs and the hand-overs into ({@code upstream}) and out of it ({@code downstream}). */
public record ProcessLineage(long processId, List<Run> runs, List<ProcessEdge> upstream, List<ProcessEdge> downstream) {

    public record Run(long instanceExecId, long processId, Long targetBatchId, String batchMarking, String state,
                      OffsetDateTime startedAt, OffsetDateTime endedAt) {
    }

    /** A step's run inside its parent's run; {@code state} RUNNING, SUCCESS or FAILED. */
    public record StepRun(long subInstanceExecId, long subProcessId, long parentProcessId, long parentInstanceExecId,
                          String state, OffsetDateTime startedAt, OffsetDateTime endedAt) {
    }

    public record Enqueue(long queueId, long sourceBatchId, Long sourceProcessId, long consumerProcessId,
                          String batchMarking, OffsetDateTime enqueuedAt) {
    }

    /**
     * {@code fromProcessId} produced batch {@code batchId} (in run {@code fromRun}, if known) and
     * {@code toProcessId} consumed it (in run {@code toRun}), or, when {@code consumed} is false, it is only queued
     * for {@code toProcessId}'s step {@code viaStepId}.
     */
    public record ProcessEdge(Long fromProcessId, long toProcessId, Long viaStepId, long batchId, Long fromRun,
                              Long toRun, boolean consumed) {
    }
}
