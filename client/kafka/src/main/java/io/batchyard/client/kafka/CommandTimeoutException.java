package io.batchyard.client.kafka;

import java.time.Duration;

/**
 * A sent command got neither its lifecycle event nor a rejection within the wait. It may still be applied later
 * (execution-service retries commands it cannot decide yet): look at the run over REST before sending it again.
 */
public class CommandTimeoutException extends RuntimeException {

    private final String correlationId;

    public CommandTimeoutException(Command.Type command, String correlationId, Duration waited) {
        super(command + " (correlation " + correlationId + ") got no answer within " + waited.toMillis() + " ms");
        this.correlationId = correlationId;
    }

    public String correlationId() {
        return correlationId;
    }
}
