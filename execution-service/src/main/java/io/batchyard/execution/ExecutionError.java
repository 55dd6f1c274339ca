package io.batchyard.execution;

import io.batchyard.api.ErrorCode;

/** execution-service's own errors (401-499); lifecycle rejections use {@link io.batchyard.api.LifecycleError}. */
public enum ExecutionError implements ErrorCode {
    QUEUE_UNAVAILABLE(401, 503, "Queue service unavailable"),
    ILLEGAL_TRANSITION(402, 409, "Illegal run state transition"),
    CONCURRENT_CHANGE(403, 409, "Concurrent change of a run");

    private final Spec spec;

    ExecutionError(int code, int status, String title) {
        this.spec = new Spec(code, status, title);
    }

    @Override
    public Spec spec() {
        return spec;
    }
}
