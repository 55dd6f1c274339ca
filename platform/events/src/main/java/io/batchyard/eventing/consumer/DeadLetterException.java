package io.batchyard.eventing.consumer;

/**
 * What a consumer hands to the dead-letter strategy instead of the real failure. The Kafka connector copies the
 * message (and a cause's message) into the dead-letter headers; this exception carries only the classifier's safe
 * reason, has no cause and no stack trace, so no SQL, bind value or stack frame can reach the topic.
 */
public final class DeadLetterException extends RuntimeException {

    private final FailureKind kind;

    public DeadLetterException(FailureKind kind, String reason) {
        super(reason, null, false, false);
        this.kind = kind;
    }

    public FailureKind kind() {
        return kind;
    }
}
