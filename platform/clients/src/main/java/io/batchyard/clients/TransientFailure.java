package io.batchyard.clients;

/**
 * A failure that the same call may not meet a moment later: no connection, no answer in time, or a 502, 503 or 504.
 * The only failures the clients retry; a refusal (4xx) never is.
 */
public class TransientFailure extends RemoteUnavailable {

    public TransientFailure(String message) {
        super(message);
    }

    public TransientFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
