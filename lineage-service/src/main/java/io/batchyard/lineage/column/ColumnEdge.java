package io.batchyard.lineage.column;

/** Data flows from {@code from} into {@code to}. */
public record ColumnEdge(Endpoint from, Endpoint to) {

    public String notation() {
        return from.notation() + " -> " + to.notation();
    }
}
