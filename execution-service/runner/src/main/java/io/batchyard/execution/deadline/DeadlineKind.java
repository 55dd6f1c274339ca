package io.batchyard.execution.deadline;

/** What a deadline promises about a bucket's run. */
public enum DeadlineKind {
    /** The run must have started by the due time. */
    START,
    /** The run must have finished (HaltJob) by the due time. */
    FINISH,
    /** The run may take at most so long: due once it started. */
    RUNTIME
}
