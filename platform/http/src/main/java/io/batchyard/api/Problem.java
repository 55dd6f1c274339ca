package io.batchyard.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * RFC 9457 problem details with Batchyard's numeric {@code code}. Bodies never carry stack traces, class names, SQL
 * or rejected values of secret fields.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String instance, Integer code,
                      List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    /** The problem of a catalogued error, answered with the error's own status. */
    public static Problem of(ErrorCode err, String detail) {
        return of(err, err.status(), detail);
    }

    /** The problem of a catalogued error answered with another status (one the router produced, say). */
    public static Problem of(ErrorCode err, int status, String detail) {
        return new Problem(type(err.code()), err.title(), status, detail, null, err.code(), null);
    }

    static String type(int code) {
        return "https://batchyard.io/problems/" + code;
    }

    public record FieldError(String field, String message) {
    }
}
