package io.batchyard.execution.trigger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * What the launcher hook is told: the parent to start, its workflow type ({@code 1} / {@code "oozie"}, {@code 3} /
 * {@code "airflow"}), the BatchEnqueued event that fired it (its id lets an orchestrator drop a repeated call), the
 * bucket of the parent the run is for, the trigger run, and every batch attributed to the run.
 */
public record LaunchRequest(long processId, int workflowTypeId, String workflowType, String eventId, String bucket,
                            long triggerRunId, List<Batch> batches) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One enqueued batch: for {@code consumerProcessId} (a step of the parent), from {@code sourceProcessId}, with its
     * producer's bucket ({@code batchMarking}: the marking as a bucket key, {@code batch-<id>} without one).
     */
    public record Batch(long queueId, long sourceBatchId, Long sourceProcessId, long consumerProcessId,
                        String batchMarking) {
    }

    /** The name of a workflow type as the registry's master data has it. */
    static String typeName(int workflowTypeId) {
        return switch (workflowTypeId) {
            case 1 -> "oozie";
            case 2 -> "stand-alone";
            case 3 -> "airflow";
            default -> "type-" + workflowTypeId;
        };
    }

    public String json() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
