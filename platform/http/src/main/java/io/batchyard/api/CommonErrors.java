package io.batchyard.api;

/**
 * Errors every service shares; numbered below the lifecycle codes (101-114) to stay out of their way. Codes never
 * change meaning once published: new ones take the next free number.
 */
public enum CommonErrors implements ErrorCode {
    INVALID_REQUEST(1, 400, "Invalid request"),
    NOT_FOUND(2, 404, "Resource not found"),
    CONFLICT(3, 409, "Conflicting change"),
    UNAVAILABLE(4, 503, "Service temporarily unavailable"),
    METHOD_NOT_ALLOWED(5, 405, "Method not allowed"),
    NOT_ACCEPTABLE(6, 406, "Not acceptable"),
    PAYLOAD_TOO_LARGE(7, 413, "Request body too large"),
    UNSUPPORTED_MEDIA_TYPE(8, 415, "Unsupported media type"),
    INTERNAL(9, 500, "Internal error"),
    URI_TOO_LONG(10, 414, "Request URI too long"),
    HEADERS_TOO_LARGE(11, 431, "Request header fields too large"),
    UNAUTHENTICATED(12, 401, "Authentication required"),
    FORBIDDEN(13, 403, "Not allowed"),
    /** The caller's permission on the process's application (owner / group / others) does not cover the call. */
    APPLICATION_PERMISSION(14, 403, "Application permission missing");

    private final Spec spec;

    CommonErrors(int code, int status, String title) {
        this.spec = new Spec(code, status, title);
    }

    @Override
    public Spec spec() {
        return spec;
    }

    /** The shared error for an HTTP status the framework produced on its own (no handler ran). */
    public static CommonErrors forStatus(int status) {
        for (CommonErrors e : values()) {
            if (e.status() == status) {
                return e;
            }
        }
        return status >= 500 ? INTERNAL : INVALID_REQUEST;
    }
}
