package io.batchyard.client;

/**
 * A call Batchyard refused or could not answer: the HTTP status and, from the problem+json body, Batchyard's numeric
 * {@code code} (e.g. 104 "Parent Process is already running"), the title and the detail. {@link #code()} is null only
 * when the answer carried no problem body (a proxy's page, say).
 */
public class ProblemException extends RuntimeException {

    private final int status;
    private final Integer code;
    private final String title;
    private final String detail;

    public ProblemException(int status, Integer code, String title, String detail) {
        super(message(status, code, title, detail));
        this.status = status;
        this.code = code;
        this.title = title;
        this.detail = detail;
    }

    private static String message(int status, Integer code, String title, String detail) {
        StringBuilder m = new StringBuilder();
        m.append(code == null ? "HTTP " + status : "code " + code + " (HTTP " + status + ")");
        if (title != null && !title.isBlank()) {
            m.append(' ').append(title);
        }
        if (detail != null && !detail.isBlank()) {
            m.append(": ").append(detail);
        }
        return m.toString();
    }

    public int status() {
        return status;
    }

    public Integer code() {
        return code;
    }

    public String title() {
        return title;
    }

    public String detail() {
        return detail;
    }

    /** True for the 503 Batchyard answers while a dependency (database, broker, another service) is away. */
    public boolean unavailable() {
        return status == 503;
    }
}
