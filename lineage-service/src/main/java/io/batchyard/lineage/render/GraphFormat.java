package io.batchyard.lineage.render;

import io.batchyard.api.CommonErrors;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.ws.rs.core.Response;
import java.util.Locale;
import java.util.function.Function;

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

    /**
     * The JSON body, or its DOT text, or that text rendered by Graphviz. Graphviz is an OS process that blocks while
     * it renders, so the SVG answer is built on a worker thread, never on the event loop that loaded the body.
     */
    public <T> Uni<Response> respond(Uni<T> body, Function<? super T, String> dot, Graphviz graphviz) {
        return switch (this) {
            case JSON -> body.map(json -> Response.ok(json, "application/json").build());
            case DOT -> body.map(b -> Response.ok(dot.apply(b), DOT_MEDIA_TYPE).build());
            case SVG -> body.emitOn(Infrastructure.getDefaultWorkerPool())
                    .map(b -> Response.ok(graphviz.svg(dot.apply(b)), SVG_MEDIA_TYPE).build());
        };
    }
}
