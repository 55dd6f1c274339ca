package io.batchyard.api;

/** Errors every service shares; numbered below the lifecycle codes (101-114) to stay out of their way. */
public enum CommonErrors implements ErrorCode {
    INVALID_REQUEST(1, 400, "Invalid request"),
    NOT_FOUND(2, 404, "Resource not found"),
    CONFLICT(3, 409, "Conflicting change"),
    INTERNAL(9, 500, "Internal error");

    private final Spec spec;

    CommonErrors(int code, int status, String title) {
        this.spec = new Spec(code, status, title);
    }

    @Override
    public Spec spec() {
        return spec;
    }
}
