package io.batchyard.api;

/** Implemented by each service's error catalogue (an enum), so codes live in one place per service. */
public interface ErrorCode {
    int code();

    int status();

    String title();

    default ApiException exception(String detail) {
        return new ApiException(this, detail);
    }
}
