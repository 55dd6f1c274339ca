package io.batchyard.api;

/**
 * Implemented by each service's error catalogue (an enum), so codes live in one place per service. An enum keeps
 * its constant's {@link Spec} and inherits the accessors.
 */
public interface ErrorCode {

    /** Code, HTTP status and title of one error. */
    record Spec(int code, int status, String title) {
    }

    Spec spec();

    default int code() {
        return spec().code();
    }

    default int status() {
        return spec().status();
    }

    default String title() {
        return spec().title();
    }

    default ApiException exception(String detail) {
        return new ApiException(this, detail);
    }
}
