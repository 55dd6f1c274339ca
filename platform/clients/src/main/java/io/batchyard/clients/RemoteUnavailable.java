package io.batchyard.clients;

/**
 * The remote service gave no usable answer: it failed (500), refused this service's own identity, answered something
 * unreadable, or stayed unreachable after the retries. Never the caller's fault; a service answers it as 503.
 */
public class RemoteUnavailable extends RuntimeException {

    public RemoteUnavailable(String message) {
        super(message);
    }

    public RemoteUnavailable(String message, Throwable cause) {
        super(message, cause);
    }
}
