package io.batchyard.execution;

import io.batchyard.api.ErrorCode;

/** execution-service's own errors (401-499); lifecycle rejections use {@link io.batchyard.api.LifecycleError}. */
public enum ExecutionError implements ErrorCode {
    QUEUE_UNAVAILABLE(401, 503, "Queue service unavailable"),
    ILLEGAL_TRANSITION(402, 409, "Illegal run state transition"),
    CONCURRENT_CHANGE(403, 409, "Concurrent change of a run"),
    INVALID_RUN_POLICY(404, 400, "Invalid run policy"),
    NO_RUN_POLICY(405, 404, "No run policy for this process"),
    INVALID_BUCKET(406, 400, "Invalid bucket"),
    BUCKET_NOT_RETRYABLE(407, 409, "Bucket is not failed"),
    NOT_A_STAND_ALONE_PARENT(408, 409, "Not a stand-alone parent process"),
    UNKNOWN_RUN(409, 404, "Unknown run"),
    /** Empty, absolute, with a '..' segment or a control character: not a name inside the script directory. */
    SCRIPT_NAME_REFUSED(410, 422, "Script name refused"),
    /** The name is well formed but its real path (after symlinks) lies outside the script directory. */
    SCRIPT_OUTSIDE_DIRECTORY(411, 422, "Script resolves outside the script directory"),
    /** Neither a parent nor a step this service has heard of from the registry. */
    UNKNOWN_PROCESS(412, 404, "Unknown process"),
    /** The process was deleted in the registry: its history stays readable, nothing new is recorded for it. */
    DELETED_PROCESS(413, 409, "Deleted process"),
    NO_PROCESS_LOG_ENTRY(414, 404, "No process log entry");

    private final Spec spec;

    ExecutionError(int code, int status, String title) {
        this.spec = new Spec(code, status, title);
    }

    @Override
    public Spec spec() {
        return spec;
    }
}
