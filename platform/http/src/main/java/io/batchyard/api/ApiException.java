package io.batchyard.api;

/** A refusal the caller can act on: carries the HTTP status and the Batchyard code of the error. */
public class ApiException extends RuntimeException {

    private final int status;
    private final int code;
    private final String title;

    public ApiException(int status, int code, String title, String detail) {
        super(detail);
        this.status = status;
        this.code = code;
        this.title = title;
    }

    public ApiException(ErrorCode error, String detail) {
        this(error.status(), error.code(), error.title(), detail);
    }

    public int status() {
        return status;
    }

    public int code() {
        return code;
    }

    public String title() {
        return title;
    }
}
