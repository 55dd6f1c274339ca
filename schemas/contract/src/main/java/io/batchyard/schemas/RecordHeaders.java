package io.batchyard.schemas;

/** Kafka record headers that are part of the contract, next to the Avro value. */
public final class RecordHeaders {

    /**
     * The producer's identity on a command record: {@code Bearer <access token>}, the same token the producer would
     * send over REST. Commands without it are refused like anonymous REST calls.
     */
    public static final String AUTHORIZATION = "authorization";

    /**
     * W3C Trace Context of the record ({@link TraceParent}): the trace of the call, command or event that led to it,
     * with a span of its own. Every record the services publish carries one; a producer's command may carry one, and
     * what follows from it continues that trace.
     */
    public static final String TRACEPARENT = "traceparent";

    private RecordHeaders() {
    }
}
