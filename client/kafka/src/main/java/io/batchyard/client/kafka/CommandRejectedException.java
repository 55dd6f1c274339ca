package io.batchyard.client.kafka;

import io.batchyard.client.ProblemException;

/**
 * A command execution-service refused ({@code CommandRejected}): the same problem code and text its REST twin answers.
 * {@link #status()} is 0, as no HTTP answer was involved.
 */
public class CommandRejectedException extends ProblemException {

    private final String correlationId;
    private final Command.Type command;

    public CommandRejectedException(Command.Type command, String correlationId, int code, String title,
                                    String detail) {
        super(0, code, title, detail);
        this.command = command;
        this.correlationId = correlationId;
    }

    public String correlationId() {
        return correlationId;
    }

    public Command.Type command() {
        return command;
    }

    @Override
    public String getMessage() {
        return command + " rejected, code " + code() + (title() == null ? "" : " " + title())
                + (detail() == null ? "" : ": " + detail()) + " (correlation " + correlationId + ")";
    }
}
