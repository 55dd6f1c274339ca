package io.batchyard.api;

/**
 * Batchyard's public lifecycle error codes. The title is the code's fixed message; details (the reference text, with
 * the pid) go in the problem's {@code detail}. Every rejection of a lifecycle call carries one of these.
 */
public enum LifecycleError implements ErrorCode {
    MAX_BATCH_NULL(101, 422, "Max batch cannot be null"),
    INVALID_PARENT_PROCESS(102, 422, "Invalid parent process"),
    INVALID_SUB_PROCESS(103, 422, "Invalid sub-process"),
    PARENT_ALREADY_RUNNING(104, 409, "Parent Process is already running"),
    PROCESS_NOT_RUNNING(105, 409, "The process is not running"),
    SUB_PROCESS_ALREADY_RUNNING(106, 409, "This sub process is already running"),
    SUB_PROCESS_NOT_RUNNING(107, 409, "This sub process is not running"),
    PARENT_NOT_RUNNING(108, 409, "The parent process is not running"),
    BATCHES_MISSING(109, 409, "Not all necessary batches are present for the sub process"),
    SUB_PROCESS_RUNNING(110, 409, "Sub process in running state"),
    SUB_PROCESS_FAILED(111, 409, "Sub process in failed state"),
    NO_BATCHES(112, 409, "No batches present for one of the sub processes"),
    BATCHES_OF_DIFFERENT_SUB_PROCESSES(113, 422, "Min batch and max batch do not belong to the same sub process"),
    BATCH_NOT_QUEUED(114, 404, "Batch not present in the process_batch_queue table");

    private final Spec spec;

    LifecycleError(int code, int status, String title) {
        this.spec = new Spec(code, status, title);
    }

    @Override
    public Spec spec() {
        return spec;
    }

    public static LifecycleError ofCode(int code) {
        for (LifecycleError e : values()) {
            if (e.code() == code) {
                return e;
            }
        }
        throw new IllegalArgumentException("no lifecycle error " + code);
    }
}
