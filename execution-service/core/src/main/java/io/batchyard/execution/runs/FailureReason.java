package io.batchyard.execution.runs;

import io.batchyard.api.CommonErrors;

/**
 * Why a job's run failed, as TermJob's caller tells it: an optional code (the stand-alone runner passes the failing
 * step's exit code) and an optional text. Stored on the run and carried by {@code JobFailed}, so that whoever watches
 * runs sees the reason without reading the run output.
 */
public record FailureReason(Integer code, String text) {

    /** The most a text may hold; the database's CHECK on {@code instance_exec.failure_text} says the same. */
    public static final int MAX_TEXT = 2000;

    /** TermJob without a reason: the run's code and text stay null. */
    public static final FailureReason NONE = new FailureReason(null, null);

    /**
     * A reason the service words itself (the runner: a step's command line, a script's refusal), cut to
     * {@link #MAX_TEXT} instead of refused: a long script name must not keep the run from being terminated.
     */
    public static FailureReason truncated(Integer code, String text) {
        if (text == null || text.length() <= MAX_TEXT) {
            return new FailureReason(code, text);
        }
        int end = MAX_TEXT - 1;
        // Never cut a surrogate pair in half: the lone half would not survive the trip to PostgreSQL.
        if (Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return new FailureReason(code, text.substring(0, end) + "…");
    }

    /**
     * Refuses a reason a caller sent that could not be stored as it is (code 1, like any invalid request): REST
     * refuses it earlier through Bean Validation, a command over Kafka reaches this check.
     */
    public void requireStorable() {
        if (text == null) {
            return;
        }
        if (text.length() > MAX_TEXT) {
            throw CommonErrors.INVALID_REQUEST.exception("the failure text must be at most " + MAX_TEXT
                    + " characters, got " + text.length());
        }
        if (text.indexOf('\0') >= 0) {
            throw CommonErrors.INVALID_REQUEST.exception("the failure text must not contain NUL characters");
        }
    }
}
