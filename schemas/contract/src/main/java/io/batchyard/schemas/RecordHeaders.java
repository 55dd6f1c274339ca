package io.batchyard.schemas;

/** Kafka record headers that are part of the contract, next to the Avro value. */
public final class RecordHeaders {

    /**
     * The producer's identity on a command record: {@code Bearer <access token>}, the same token the producer would
     * send over REST. Commands without it are refused like anonymous REST calls.
     */
    public static final String AUTHORIZATION = "authorization";

    private RecordHeaders() {
    }
}
