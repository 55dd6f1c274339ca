package io.batchyard.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/** Turns an error answer into a {@link ProblemException}: problem+json when it is one, the bare status otherwise. */
public final class Problems {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A non-JSON body is quoted in the detail up to this length, so an HTML error page does not flood the logs. */
    static final int MAX_QUOTED = 300;

    private Problems() {
    }

    public static ProblemException of(int status, String body) {
        if (body != null && !body.isBlank()) {
            try {
                JsonNode n = JSON.readTree(body);
                if (n != null && n.isObject()) {
                    Integer code = n.hasNonNull("code") && n.get("code").canConvertToInt() ? n.get("code").intValue()
                            : null;
                    return new ProblemException(status, code, text(n, "title"), detail(n));
                }
            } catch (IOException notJson) {
                // fall through: the body is quoted as it came
            }
        }
        String quoted = body == null || body.isBlank() ? null
                : body.length() > MAX_QUOTED ? body.substring(0, MAX_QUOTED) + "…" : body;
        return new ProblemException(status, null, null, quoted);
    }

    /** The detail, with the per-field messages of a 400 appended so a caller sees which field was wrong. */
    private static String detail(JsonNode n) {
        String detail = text(n, "detail");
        JsonNode errors = n.get("errors");
        if (errors == null || !errors.isArray() || errors.isEmpty()) {
            return detail;
        }
        StringBuilder d = new StringBuilder(detail == null ? "" : detail);
        for (JsonNode e : errors) {
            d.append(d.length() == 0 ? "" : "; ").append(text(e, "field")).append(": ").append(text(e, "message"));
        }
        return d.toString();
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
