package io.batchyard.client.kafka;

import java.util.Map;

/**
 * The lifecycle event that answered a command: its type ({@code JobStarted}, {@code StepStarted}, {@code StepHalted},
 * {@code StepFailed}, {@code JobHalted}, {@code JobFailed}) and its fields other than the header, as plain Java values
 * (strings, numbers, booleans, null), e.g. {@code instanceExecId} and {@code targetBatchId} of a JobStarted.
 */
public record CommandOutcome(String correlationId, String event, Map<String, Object> fields) {

    /** A numeric field, null when the event has none (or it is null). */
    public Long number(String field) {
        Object v = fields.get(field);
        return v instanceof Number n ? n.longValue() : null;
    }

    /** The run the event belongs to (the parent's run for job events, the step's run for step events). */
    public Long instanceExecId() {
        return number("instanceExecId");
    }
}
