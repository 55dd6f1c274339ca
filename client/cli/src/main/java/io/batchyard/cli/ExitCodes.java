package io.batchyard.cli;

import io.batchyard.client.ProblemException;

/**
 * The exit status of a command, from what the services answered. A shell step can tell a refusal it expects (say
 * 14, "Parent Process is already running", code 104) from an outage (3) without parsing the message.
 */
public final class ExitCodes {

    public static final int OK = 0;
    /** Batchyard refused the call with a code not mapped below (the code is printed). */
    public static final int REFUSED = 1;
    /** Flags, arguments or settings unusable (picocli's own status for bad arguments too). */
    public static final int USAGE = 2;
    /** Batchyard unreachable after the retries (503, refused connection) or an answer without a problem body. */
    public static final int UNAVAILABLE = 3;
    /** No token, a token refused (401, code 12), a role too low (403, code 13) or no execute permission (code 14). */
    public static final int NOT_ALLOWED = 4;
    /** Not found (404 without a lifecycle code: an unknown process or run, no process-log value). */
    public static final int NOT_FOUND = 5;
    /** Lifecycle code 101 maps to 11, …, 114 to 24: the status is the code minus {@value #LIFECYCLE_OFFSET}. */
    public static final int LIFECYCLE_OFFSET = 90;

    private ExitCodes() {
    }

    public static int of(ProblemException e) {
        Integer code = e.code();
        if (code != null && code >= 101 && code <= 114) {
            return code - LIFECYCLE_OFFSET;
        }
        if (e.status() == 401 || e.status() == 403 || code != null && code >= 12 && code <= 14) {
            return NOT_ALLOWED;
        }
        if (code == null || e.status() >= 500) {
            return UNAVAILABLE;
        }
        if (e.status() == 404) {
            return NOT_FOUND;
        }
        return REFUSED;
    }
}
