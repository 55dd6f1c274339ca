package io.batchyard.queue;

import io.batchyard.api.ErrorCode;

/** queue-service's own errors (301-399); the lifecycle codes 101-114 are {@link io.batchyard.api.LifecycleError}. */
public enum QueueError implements ErrorCode {
    FILE_EXISTS(301, 409, "File Already exists exception"),
    UNKNOWN_PROCESS(302, 422, "Unknown process"),
    UNKNOWN_BATCH(303, 404, "Unknown batch"),
    ALREADY_QUEUED(304, 409, "Batch already queued for the process"),
    BATCH_ID_OUT_OF_RANGE(305, 400, "Batch id outside the client range"),
    /** A backfill's re-enqueue of a batch the step never consumed (no archived row), or one already waiting anew. */
    NOTHING_TO_SUPERSEDE(340, 409, "No archived consumption of the batch to supersede");

    private final Spec spec;

    QueueError(int code, int status, String title) {
        this.spec = new Spec(code, status, title);
    }

    @Override
    public Spec spec() {
        return spec;
    }
}
