package io.batchyard.lineage.api;

import io.batchyard.api.CommonErrors;
import jakarta.ws.rs.core.Response;
import java.util.Locale;
import java.util.function.Supplier;

/** {@code ?format=json|dot|svg} of the lineage read endpoints. */
public enum GraphFormat {
    JSON, DOT, SVG;

    public static final String DOT_MEDIA_TYPE = "text/vnd.graphviz";
    public static final String SVG_MEDIA_TYPE = "image/svg+xml";

    public static GraphFormat parse(String value) {
        if (value == null || value.isBlank()) {
            return JSON;
        }
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw CommonErrors.INVALID_REQUEST.exception("format must be json, dot or svg");
        }
    }

    /** The JSON body, or its DOT text, or that text rendered by Graphviz. */
    public Response respond(Object json, Supplier<String> dot, Graphviz graphviz) {
        return switch (this) {
            case JSON -> Response.ok(json, "application/json").build();
            case DOT -> Response.ok(dot.get(), DOT_MEDIA_TYPE).build();
            case SVG -> Response.ok(graphviz.svg(dot.get()), SVG_MEDIA_TYPE).build();
        };
    }
}
