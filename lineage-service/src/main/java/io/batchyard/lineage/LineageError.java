package io.batchyard.lineage;

import io.batchyard.api.ErrorCode;

/** lineage-service's own errors (501-599); shared ones are {@link io.batchyard.api.CommonErrors}. */
public enum LineageError implements ErrorCode {
    UNKNOWN_QUERY(501, 404, "Unknown query"),
    /** Lineage by batch: no run produced or consumed the batch, and it was never enqueued. */
    UNKNOWN_BATCH(502, 404, "Invalid Target BatchId"),
    UNKNOWN_COLUMN(503, 404, "Unknown table or column"),
    UNKNOWN_RUN(504, 404, "Unknown run"),
    GRAPHVIZ_UNAVAILABLE(505, 503, "Graphviz is not available"),
    INVALID_NAME(506, 400, "Invalid table or column name"),
    UNKNOWN_TABLE(507, 404, "Unknown table"),
    UNKNOWN_PROCESS(508, 404, "Unknown process");

    private final Spec spec;

    LineageError(int code, int status, String title) {
        this.spec = new Spec(code, status, title);
    }

    @Override
    public Spec spec() {
        return spec;
    }
}
