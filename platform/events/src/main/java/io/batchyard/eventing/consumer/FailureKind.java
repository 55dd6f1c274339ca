package io.batchyard.eventing.consumer;

/** What a consumer does with a record whose processing failed. */
public enum FailureKind {
    /** The infrastructure failed, not the record: retry the same record until it succeeds. */
    TRANSIENT,
    /** The record can never be applied (undecodable, contradicts what the consumer knows, breaks a constraint). */
    INVALID,
    /** A failure nobody foresaw (a bug): dead-lettered like an invalid record, but logged at ERROR. */
    UNEXPECTED;

    public boolean isPoison() {
        return this != TRANSIENT;
    }
}
